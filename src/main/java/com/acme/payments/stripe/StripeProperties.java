package com.acme.payments.stripe;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Stripe settings ({@code stripe.*}, env {@code STRIPE_*} by relaxed binding). The secrets are optional
 * for start-up (the rest of the service must run without billing); the webhook answers 500 and the sync
 * refuses while they are missing.
 *
 * @param webhookSecret the {@code whsec_…} secret of {@code Stripe-Signature} ({@code STRIPE_WEBHOOK_SECRET});
 *        never logged
 * @param apiKey the secret API key reconciliation reads invoices with ({@code STRIPE_API_KEY}); never logged
 * @param apiBase base URL of the Stripe API ({@code STRIPE_API_BASE})
 * @param signatureTolerance how far a signature's {@code t} may lie from now
 * @param claimExpiry age of a {@code processing} claim another worker may take over; must comfortably
 *        exceed the slowest handler
 * @param apiTimeout connect and read timeout of one Stripe API call
 * @param prune the scheduled removal of completed event rows
 * @param bulkhead how many deliveries may use the database at once, and how long the others queue
 */
@Validated
@ConfigurationProperties("stripe")
public record StripeProperties(String webhookSecret, String apiKey,
        @DefaultValue("https://api.stripe.com") String apiBase,
        @DefaultValue("300s") @DurationMin(millis = 1) Duration signatureTolerance,
        @DefaultValue("2m") @DurationMin(millis = 1) Duration claimExpiry,
        @DefaultValue("20s") @DurationMin(millis = 1) Duration apiTimeout,
        @DefaultValue @Valid Prune prune,
        @DefaultValue @Valid Bulkhead bulkhead) {

    public StripeProperties {
        webhookSecret = blankToNull(webhookSecret);
        apiKey = blankToNull(apiKey);
        apiBase = apiBase == null ? null : apiBase.strip();
    }

    public boolean webhookConfigured() {
        return webhookSecret != null;
    }

    public boolean apiConfigured() {
        return apiKey != null;
    }

    /**
     * The scheduled removal of completed event rows.
     *
     * @param enabled whether this instance prunes
     * @param retention age of a completed event row before it is removed; at least 3d, Stripe's retry window,
     *        or a late retry would reprocess
     * @param interval pause between two prunes
     */
    public record Prune(@DefaultValue("true") Boolean enabled,
            @DefaultValue("30d") @DurationMin(days = 3, message = "must be at least 3d (Stripe retries for three "
                    + "days; a shorter retention lets a late retry reprocess)") Duration retention,
            @DefaultValue("1h") @DurationMin(millis = 1) Duration interval) {
    }

    /**
     * The bound on Stripe deliveries inside the database ({@link StripeBulkhead}): the claim, the business
     * transaction with its completion mark, and a release take a permit; the others queue in arrival order.
     *
     * @param permits deliveries of this instance in the database at once; unset = half the connection pool
     *        (at least 1); must stay below the pool's size (checked at start-up), so the rest of the service
     *        keeps connections during a burst
     * @param maxWait how long one delivery may queue in all before it is answered 503 with {@code Retry-After};
     *        at most 10s, so the answer reaches Stripe before its delivery timeout
     */
    public record Bulkhead(@Min(1) Integer permits,
            @DefaultValue("8s") @DurationMin(millis = 1) @DurationMax(seconds = 10, message = "must be at most 10s "
                    + "(the queued delivery must still be answered before Stripe's delivery timeout)")
            Duration maxWait) {
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    @Override
    public String toString() { // never the secret or the key
        return "StripeProperties[apiBase=" + apiBase + ", webhookConfigured=" + webhookConfigured()
                + ", apiConfigured=" + apiConfigured() + ", claimExpiry=" + claimExpiry + ", prune=" + prune + ", bulkhead=" + bulkhead + "]";
    }
}
