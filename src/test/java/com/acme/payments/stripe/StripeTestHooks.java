package com.acme.payments.stripe;

import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import com.acme.payments.stripe.ProcessedEventStore.Claim;

/**
 * Registers the {@link ScriptedHook} in the Stripe tests' application context and hands it the points in
 * the life of one event where a test stops a worker, by wrapping the production beans (the service has no
 * hook of its own): after the claim committed, inside the event transaction before and after the business
 * writes, after the commit. Each advice goes outermost, so "after the claim" and "after the commit" run
 * once the Store's and the Applier's own transactions have ended.
 */
@TestConfiguration(proxyBeanMethods = false)
public class StripeTestHooks {

    /** The attempt (1-based, as SerializationRetry counts) of the event transaction running on this thread. */
    private static final ThreadLocal<Integer> ATTEMPT = new ThreadLocal<>();
    /** The attempts so far of the event this thread claimed last. */
    private static final ThreadLocal<Integer> ATTEMPTS = ThreadLocal.withInitial(() -> 0);

    @Bean
    ScriptedHook scriptedHook() {
        return new ScriptedHook();
    }

    @Bean
    static BeanPostProcessor stripeHookPoints(ObjectProvider<ScriptedHook> hooks) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (bean instanceof ProcessedEventStore) {
                    return outermost(bean, invocation -> {
                        Object result = invocation.proceed();
                        if (invocation.getMethod().getName().equals("claim") && result instanceof Claim claim
                                && (claim.status() == Claim.Status.CLAIMED
                                        || claim.status() == Claim.Status.TAKEN_OVER)) {
                            ATTEMPTS.set(0);
                            hooks.getObject().afterClaim(claim.eventId());
                        }
                        return result;
                    });
                }
                if (bean instanceof StripeEventApplier) {
                    return outermost(bean, invocation -> {
                        if (!invocation.getMethod().getName().equals("apply")) {
                            return invocation.proceed();
                        }
                        StripeEvent event = (StripeEvent) invocation.getArguments()[0];
                        ATTEMPTS.set(ATTEMPTS.get() + 1);
                        ATTEMPT.set(ATTEMPTS.get());
                        Object result;
                        try {
                            result = invocation.proceed();
                        } finally {
                            ATTEMPT.remove();
                        }
                        hooks.getObject().afterCommit(event.id());
                        return result;
                    });
                }
                if (bean instanceof StripeEventHandler) {
                    return outermost(bean, invocation -> {
                        if (!invocation.getMethod().getName().equals("apply") || ATTEMPT.get() == null) {
                            return invocation.proceed();
                        }
                        StripeEvent event = (StripeEvent) invocation.getArguments()[0];
                        hooks.getObject().beforeBusinessWrites(event.id(), ATTEMPT.get());
                        Object result = invocation.proceed();
                        hooks.getObject().afterBusinessWrites(event.id(), ATTEMPT.get());
                        return result;
                    });
                }
                return bean;
            }
        };
    }

    private static Object outermost(Object bean, MethodInterceptor advice) {
        if (bean instanceof Advised advised) {
            advised.addAdvice(0, advice);
            return bean;
        }
        ProxyFactory proxy = new ProxyFactory(bean);
        proxy.setProxyTargetClass(true);
        proxy.addAdvice(advice);
        return proxy.getProxy();
    }
}
