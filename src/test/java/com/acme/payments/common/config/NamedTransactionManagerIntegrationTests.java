package com.acme.payments.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.interceptor.NoRollbackRuleAttribute;
import org.springframework.transaction.interceptor.RollbackRuleAttribute;
import org.springframework.transaction.interceptor.RuleBasedTransactionAttribute;
import org.springframework.transaction.interceptor.TransactionAttribute;
import org.springframework.transaction.interceptor.TransactionInterceptor;

import com.acme.payments.outbox.OutboxStore;
import com.acme.payments.support.IntegrationTest;

/**
 * Every {@code @Transactional} call names the one transaction manager, so Spring's interceptor does not scan
 * the target class for a {@code @Qualifier} per call (a profile of the webhook path); everything
 * else about the attribute is as declared.
 */
class NamedTransactionManagerIntegrationTests extends IntegrationTest {

    @Autowired
    TransactionInterceptor interceptor;

    @Test
    void theApplicationsAttributesNameTheManagerAndKeepTheirPropagation() throws Exception {
        Method enqueue = java.util.Arrays.stream(OutboxStore.class.getDeclaredMethods())
                .filter(m -> m.getName().equals("enqueue")).findFirst().orElseThrow();
        TransactionAttribute attribute = interceptor.getTransactionAttributeSource().getTransactionAttribute(enqueue,
                OutboxStore.class);
        assertThat(attribute).isNotNull();
        assertThat(attribute.getQualifier()).isEqualTo("transactionManager");
        assertThat(attribute.getPropagationBehavior()).isEqualTo(TransactionDefinition.PROPAGATION_MANDATORY);
        assertThat(interceptor.getTransactionAttributeSource().getTransactionAttribute(Object.class.getMethod("hashCode"),
                Object.class)).isNull();
    }

    @Test
    void aCopyKeepsEverySettingButTheQualifier() throws Exception {
        RuleBasedTransactionAttribute declared = new RuleBasedTransactionAttribute(
                TransactionDefinition.PROPAGATION_REQUIRES_NEW,
                List.of(new RollbackRuleAttribute(Exception.class), new NoRollbackRuleAttribute(IllegalStateException.class)));
        declared.setIsolationLevel(TransactionDefinition.ISOLATION_SERIALIZABLE);
        declared.setTimeout(7);
        declared.setReadOnly(true);
        declared.setDescriptor("Store.method");
        Method method = Object.class.getMethod("toString");
        NamedTransactionManager.Named named = new NamedTransactionManager.Named((m, c) -> declared, "manager");

        TransactionAttribute copy = named.getTransactionAttribute(method, Object.class);

        assertThat(copy.getQualifier()).isEqualTo("manager");
        assertThat(copy.getPropagationBehavior()).isEqualTo(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        assertThat(copy.getIsolationLevel()).isEqualTo(TransactionDefinition.ISOLATION_SERIALIZABLE);
        assertThat(copy.getTimeout()).isEqualTo(7);
        assertThat(copy.isReadOnly()).isTrue();
        assertThat(copy.getName()).isEqualTo(declared.getName());
        assertThat(copy.rollbackOn(new Exception())).isTrue();
        assertThat(copy.rollbackOn(new IllegalStateException())).isFalse();
        assertThat(named.getTransactionAttribute(method, Object.class)).isSameAs(copy); // made once per method
        assertThat(declared.getQualifier()).isNull(); // the source's own attribute is untouched
    }
}
