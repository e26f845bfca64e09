package com.acme.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;

import com.acme.payments.support.BoundSettings;

class StripePropertiesTests {

    @Test
    void defaultsAreStripesAndTheContracts() {
        StripeProperties p = BoundSettings.bind(StripeProperties.class, "stripe", Map.of("stripe.api-key", ""));
        assertThat(p.apiBase()).isEqualTo("https://api.stripe.com");
        assertThat(p.claimExpiry()).isEqualTo(Duration.ofMinutes(2));
        assertThat(p.signatureTolerance()).isEqualTo(Duration.ofSeconds(300));
        assertThat(p.prune().retention()).isEqualTo(Duration.ofDays(30));
        assertThat(p.webhookConfigured()).isFalse();
        assertThat(p.apiConfigured()).isFalse();
        assertThat(p.bulkhead().permits()).as("derived from the pool").isNull();
        assertThat(p.bulkhead().maxWait()).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void aBulkheadWaitPastStripesTimeoutOrNoPermitIsRefused() {
        assertThatThrownBy(() -> BoundSettings.bind(StripeProperties.class, "stripe",
                Map.of("stripe.bulkhead.max-wait", "11s")))
                .isInstanceOf(BindException.class).hasStackTraceContaining("must be at most 10s");
        assertThatThrownBy(() -> BoundSettings.bind(StripeProperties.class, "stripe",
                Map.of("stripe.bulkhead.permits", "0")))
                .isInstanceOf(BindException.class).hasStackTraceContaining("permits");
        assertThat(BoundSettings.bind(StripeProperties.class, "stripe", Map.of("stripe.bulkhead.max-wait", "10s",
                "stripe.bulkhead.permits", "3")).bulkhead()).isEqualTo(
                        new StripeProperties.Bulkhead(3, Duration.ofSeconds(10)));
    }

    @Test
    void retentionBelowStripesRetryWindowIsRefused() {
        assertThatThrownBy(() -> BoundSettings.bind(StripeProperties.class, "stripe",
                Map.of("stripe.prune.retention", "2d")))
                .isInstanceOf(BindException.class).hasStackTraceContaining("must be at least 3d");
        assertThat(BoundSettings.bind(StripeProperties.class, "stripe", Map.of("stripe.prune.retention", "3d"))
                .prune().retention()).isEqualTo(Duration.ofDays(3));
    }

    @Test
    void toStringNeverShowsTheSecrets() {
        StripeProperties p = BoundSettings.bind(StripeProperties.class, "stripe",
                Map.of("stripe.webhook-secret", "whsec_very_secret", "stripe.api-key", "sk_live_secret"));
        assertThat(p.toString()).doesNotContain("whsec_very_secret", "sk_live_secret");
    }
}
