package com.acme.payments.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.support.IntegrationTest;

/** The sweep statements inherited from {@link SweptStore} keep the transaction rules each Store had. */
class SweptStoreTransactionsIntegrationTests extends IntegrationTest {

    @Autowired
    ApplicationContext context;

    @Autowired
    TransactionTemplate transactions;

    @Test
    @DisplayName("holdLease only joins a settling transaction; ageing and claiming run alone")
    void holdLeaseIsMandatoryInEveryStore() {
        @SuppressWarnings("rawtypes")
        Map<String, SweptStore> stores = context.getBeansOfType(SweptStore.class);
        assertThat(stores).containsOnlyKeys("attemptStore", "operationStore", "refundStore");
        stores.forEach((name, store) -> {
            assertThatThrownBy(() -> store.holdLease(new Lease(-1, 0))).as(name)
                    .isInstanceOf(IllegalTransactionStateException.class);
            Boolean held = transactions.execute(tx -> store.holdLease(new Lease(-1, 0)));
            assertThat(held).as(name).isFalse();
            assertThat(store.ageInFlight(Duration.ofDays(36_500), 1)).as(name).isZero();
            // an UNKNOWN row is due at once: a zero lease leaves whatever this claims due again at once
            assertThat(store.claimUnknown(Duration.ZERO, 1)).as(name).hasSizeLessThanOrEqualTo(1);
        });
    }

    @Test
    @DisplayName("every swept table is swept: each SweptTable bean is the table of exactly one Resolver's job")
    void everySweptTableHasOneResolver() {
        @SuppressWarnings("rawtypes")
        Map<String, SweptTable> tables = context.getBeansOfType(SweptTable.class);
        @SuppressWarnings("rawtypes")
        List<SweptTable> swept = context.getBeansOfType(Resolver.class).values().stream()
                .map(resolver -> (SweptTable) resolver.job().table()).toList();
        assertThat(swept).as("tables named by a Resolver's job").hasSameSizeAs(tables.values())
                .containsExactlyInAnyOrderElementsOf(tables.values());
    }
}
