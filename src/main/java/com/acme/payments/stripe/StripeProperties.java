package com.acme.payments.stripe;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Stripe settings. {@code STRIPE_WEBHOOK_SECRET} and {@code STRIPE_API_KEY} are optional for start-up
 * (the rest of the service must run without billing); the webhook answers 500 and the sync refuses
 * while they are missing. The claim expiry must comfortably exceed the slowest handler; the prune
 * retention is refused below Stripe's three-day retry window, or a late retry would reprocess.
 */
@ConfigurationProperties("stripe")
public record StripeProperties(String webhookSecret, String apiKey, String apiBase, Duration signatureTolerance,
        Duration claimExpiry, Duration apiTimeout, Prune prune) {

    static final Duration MIN_RETENTION = Duration.ofDays(3);

    public StripeProperties {
        webhookSecret = blankToNull(webhookSecret);
        apiKey = blankToNull(apiKey);
        apiBase = apiBase == null || apiBase.isBlank() ? "https://api.stripe.com" : apiBase.strip();
        signatureTolerance = signatureTolerance == null ? Duration.ofSeconds(300) : signatureTolerance;
        claimExpiry = claimExpiry == null ? Duration.ofMinutes(2) : claimExpiry;
        apiTimeout = apiTimeout == null ? Duration.ofSeconds(20) : apiTimeout;
        prune = prune == null ? new Prune(null, null, null) : prune;
        if (claimExpiry.isNegative() || claimExpiry.isZero()) {
            throw new IllegalArgumentException("stripe.claim-expiry must be positive");
        }
    }

    public boolean webhookConfigured() {
        return webhookSecret != null;
    }

    public boolean apiConfigured() {
        return apiKey != null;
    }

    /** The scheduled removal of completed event rows. */
    public record Prune(Boolean enabled, Duration retention, Duration interval) {
        public Prune {
            enabled = enabled == null || enabled;
            retention = retention == null ? Duration.ofDays(30) : retention;
            interval = interval == null ? Duration.ofHours(1) : interval;
            if (retention.compareTo(MIN_RETENTION) < 0) {
                throw new IllegalArgumentException("stripe.prune.retention must be at least 3d (Stripe retries for "
                        + "three days; a shorter retention lets a late retry reprocess), was " + retention);
            }
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    @Override
    public String toString() { // never the secret or the key
        return "StripeProperties[apiBase=" + apiBase + ", webhookConfigured=" + webhookConfigured()
                + ", apiConfigured=" + apiConfigured() + ", claimExpiry=" + claimExpiry + ", prune=" + prune + "]";
    }
}
