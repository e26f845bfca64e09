package com.acme.pspsim;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Stripe surface's settings ({@code pspsim.stripe.*}, env {@code PSPSIM_STRIPE_*}).
 *
 * @param apiKey the secret key callers of {@code /v1/**} present (Bearer, or Basic with the key as user)
 * @param webhookSecret the endpoint secret of {@code Stripe-Signature} ({@code whsec_…})
 * @param webhookUrl where events are posted (the service's {@code /webhooks/stripe}); blank: events are
 *        recorded but not sent
 * @param webhookRetryDelays the pauses before the second, third, … delivery of an event the endpoint did not
 *        answer 2xx (Stripe retries with back-off; these are short so tests and demos see them)
 * @param refundSettleDelay how long a refund stays {@code pending} before it settles
 * @param refundFailAmounts refund amounts (minor units) that end {@code failed}
 * @param refundPendingAmounts refund amounts (minor units) that stay {@code pending} until the admin API settles them
 * @param refundFailureReason the {@code failure_reason} of a failed refund
 * @param idempotencyRetention how long an {@code Idempotency-Key} and its answer are kept (Stripe: at least 24 h)
 * @param expiryCheck how often open sessions past their {@code expires_at} are expired
 */
@ConfigurationProperties("pspsim.stripe")
record StripeSettings(String apiKey, String webhookSecret, String webhookUrl, List<Duration> webhookRetryDelays,
        Duration refundSettleDelay, List<Long> refundFailAmounts, List<Long> refundPendingAmounts,
        String refundFailureReason, Duration idempotencyRetention, Duration expiryCheck) {

    /** The API version of the events' {@code api_version}: what the service pins. */
    static final String API_VERSION = "2025-08-27.basil";

    StripeSettings {
        apiKey = blank(apiKey) ? "sk_test_sim" : apiKey.trim();
        webhookSecret = blank(webhookSecret) ? "whsec_sim" : webhookSecret.trim();
        webhookUrl = blank(webhookUrl) ? null : webhookUrl.trim();
        webhookRetryDelays = webhookRetryDelays == null
                ? List.of(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(2))
                : List.copyOf(webhookRetryDelays);
        refundSettleDelay = refundSettleDelay == null ? Duration.ofSeconds(1) : refundSettleDelay;
        refundFailAmounts = refundFailAmounts == null ? List.of() : List.copyOf(refundFailAmounts);
        refundPendingAmounts = refundPendingAmounts == null ? List.of() : List.copyOf(refundPendingAmounts);
        refundFailureReason = blank(refundFailureReason) ? "declined" : refundFailureReason.trim();
        idempotencyRetention = idempotencyRetention == null ? Duration.ofHours(24) : idempotencyRetention;
        expiryCheck = expiryCheck == null || expiryCheck.isZero() || expiryCheck.isNegative() ? Duration.ofSeconds(5)
                : expiryCheck;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    @Override
    public String toString() { // never the keys
        return "StripeSettings[webhookUrl=" + webhookUrl + ", retries=" + webhookRetryDelays + "]";
    }
}
