package com.acme.payments.stripe;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** Registers the {@link ScriptedHook} in the Stripe tests' application context. */
@TestConfiguration(proxyBeanMethods = false)
public class StripeTestHooks {

    @Bean
    ScriptedHook scriptedHook() {
        return new ScriptedHook();
    }
}
