package com.acme.payments.psp.stripe;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Stripe as the PSP ({@code payments.stripe.*}): how its Checkout Sessions are made. Validated at start-up
 * whatever the provider, so a bad value fails the start naming the property. Both are fixed into each
 * attempt at its claim: changing them later changes new attempts only, never a replay.
 *
 * @param sessionLifetime a Checkout Session's {@code expires_at} from the claim, 1 h – 24 h (Stripe's own
 *        bounds: a session lives at least 30 minutes and at most 24 hours; the reconcile's replay window
 *        needs more than 31 minutes of it)
 * @param captureMethod {@code manual}: checkouts authorize only ({@code payment_intent_data[capture_method]=manual}),
 *        captured or voided as for the Gateway
 */
@Validated
@ConfigurationProperties("payments.stripe")
public record StripePspProperties(
        @DefaultValue("1h")
        @DurationMin(hours = 1, message = "payments.stripe.session-lifetime must be at least 1h")
        @DurationMax(hours = 24, message = "payments.stripe.session-lifetime must be at most 24h")
        Duration sessionLifetime,
        @DefaultValue("automatic") CaptureMethod captureMethod) {

    public enum CaptureMethod {
        AUTOMATIC, MANUAL
    }
}
