package com.acme.payments.common.config;

import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.MethodClassKey;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionManager;
import org.springframework.transaction.interceptor.DefaultTransactionAttribute;
import org.springframework.transaction.interceptor.RuleBasedTransactionAttribute;
import org.springframework.transaction.interceptor.TransactionAttribute;
import org.springframework.transaction.interceptor.TransactionAttributeSource;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.util.StringUtils;

/**
 * Names the one transaction manager on every {@code @Transactional} attribute that names none. Spring 7's
 * interceptor otherwise looks for a {@code @Qualifier} on the target class at every call (an annotation scan,
 * 3-5 % of a webhook's samples in a profile); a named one is a map look-up. Same
 * manager, same propagation, isolation, timeout and rollback rules: the attribute is copied, only its
 * qualifier set. With more than one manager nothing is changed.
 */
@Component
class NamedTransactionManager implements SmartInitializingSingleton {

    private final ListableBeanFactory beans;

    NamedTransactionManager(ListableBeanFactory beans) {
        this.beans = beans;
    }

    /** After every singleton exists and before the server and the schedulers start. */
    @Override
    public void afterSingletonsInstantiated() {
        String[] managers = beans.getBeanNamesForType(TransactionManager.class, false, false);
        if (managers.length != 1) {
            return;
        }
        for (TransactionInterceptor interceptor : beans.getBeansOfType(TransactionInterceptor.class, false, false)
                .values()) {
            TransactionAttributeSource source = interceptor.getTransactionAttributeSource();
            if (source != null && !(source instanceof Named)) {
                interceptor.setTransactionAttributeSource(new Named(source, managers[0]));
            }
        }
    }

    /** The source's attributes with {@code qualifier} set where they had none, each made once per method. */
    static final class Named implements TransactionAttributeSource {

        private static final TransactionAttribute NONE = new DefaultTransactionAttribute();

        private final TransactionAttributeSource source;
        private final String qualifier;
        private final ConcurrentMap<MethodClassKey, TransactionAttribute> named = new ConcurrentHashMap<>();

        Named(TransactionAttributeSource source, String qualifier) {
            this.source = source;
            this.qualifier = qualifier;
        }

        @Override
        public boolean isCandidateClass(Class<?> targetClass) {
            return source.isCandidateClass(targetClass);
        }

        @Override
        public boolean hasTransactionAttribute(Method method, Class<?> targetClass) {
            return source.hasTransactionAttribute(method, targetClass);
        }

        @Override
        public TransactionAttribute getTransactionAttribute(Method method, Class<?> targetClass) {
            TransactionAttribute found = named.computeIfAbsent(new MethodClassKey(method, targetClass), key -> {
                TransactionAttribute attribute = source.getTransactionAttribute(method, targetClass);
                return attribute == null ? NONE : withQualifier(attribute);
            });
            return found == NONE ? null : found;
        }

        private TransactionAttribute withQualifier(TransactionAttribute attribute) {
            if (StringUtils.hasText(attribute.getQualifier())) {
                return attribute;
            }
            DefaultTransactionAttribute copy;
            if (attribute instanceof RuleBasedTransactionAttribute rules) {
                copy = new RuleBasedTransactionAttribute(rules);
            } else if (attribute.getClass() == DefaultTransactionAttribute.class) {
                copy = new DefaultTransactionAttribute(attribute);
            } else {
                return attribute; // a kind we cannot copy faithfully: left as it is
            }
            copy.setQualifier(qualifier);
            return copy;
        }
    }
}
