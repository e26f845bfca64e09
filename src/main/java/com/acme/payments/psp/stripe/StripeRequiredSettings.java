package com.acme.payments.psp.stripe;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import com.acme.payments.common.config.RequiredSetting;

/**
 * With Stripe as the PSP, its API key and its webhook secret are secrets the service cannot take a payment
 * without: a missing one fails the start with the one line naming the variable
 * ({@code MissingSettingFailureAnalyzer}), never a value. For billing alone both stay optional
 * ({@code StripeProperties}), so this record binds the same {@code stripe.*} settings but exists only with
 * {@code PSP_PROVIDER=stripe}.
 *
 * <p>The condition sits on the record itself, not on a configuration that enables it:
 * {@code @ConfigurationPropertiesScan} registers every {@code @ConfigurationProperties} type it finds and
 * evaluates only conditions on that type, so a record enabled from a conditional configuration was bound
 * (and refused the start) in Gateway mode too. {@link StripeProvider} takes this record, so it is bound
 * and validated before the adapter is built.
 *
 * @param apiKey the secret or restricted key the adapter calls Stripe with ({@code STRIPE_API_KEY})
 * @param webhookSecret the {@code whsec_…} secret of the {@code /webhooks/stripe} endpoint
 *        ({@code STRIPE_WEBHOOK_SECRET})
 */
@Validated
@ConfigurationProperties("stripe")
@ConditionalOnProperty(prefix = "payments.psp", name = "provider", havingValue = "stripe")
record StripeRequiredSettings(@NotBlank(message = RequiredSetting.STRIPE_API_KEY) String apiKey,
        @NotBlank(message = RequiredSetting.STRIPE_WEBHOOK_SECRET) String webhookSecret) {

    @Override
    public String toString() { // never the values
        return "StripeRequiredSettings[redacted]";
    }
}
