package com.acme.payments.psp.stripe;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.validation.annotation.Validated;

import com.acme.payments.common.config.RequiredSetting;

/**
 * With Stripe as the PSP, its key and its webhook secret are secrets the service cannot run without (for
 * billing alone both stay optional): the start fails naming the variable, never a value. Bound from
 * the same {@code stripe.*} settings as {@code StripeProperties}; registered only when
 * {@code PSP_PROVIDER=stripe}.
 */
@Validated
@ConfigurationProperties("stripe")
record StripeRequiredSettings(@NotBlank(message = RequiredSetting.STRIPE_API_KEY) String apiKey,
        @NotBlank(message = RequiredSetting.STRIPE_WEBHOOK_SECRET) String webhookSecret) {

    @Override
    public String toString() { // never the values
        return "StripeRequiredSettings[redacted]";
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "payments.psp", name = "provider", havingValue = "stripe")
    @EnableConfigurationProperties(StripeRequiredSettings.class)
    static class Registration {
    }
}
