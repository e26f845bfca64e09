package com.acme.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class StripePropertiesTests {

    @Test
    void defaultsAreStripesAndTheContracts() {
        StripeProperties p = new StripeProperties(null, "", null, null, null, null, null);
        assertThat(p.apiBase()).isEqualTo("https://api.stripe.com");
        assertThat(p.claimExpiry()).isEqualTo(Duration.ofMinutes(2));
        assertThat(p.signatureTolerance()).isEqualTo(Duration.ofSeconds(300));
        assertThat(p.prune().retention()).isEqualTo(Duration.ofDays(30));
        assertThat(p.webhookConfigured()).isFalse();
        assertThat(p.apiConfigured()).isFalse();
    }

    @Test
    void retentionBelowStripesRetryWindowIsRefused() {
        assertThatThrownBy(() -> new StripeProperties.Prune(true, Duration.ofDays(2), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3d");
        assertThat(new StripeProperties.Prune(true, Duration.ofDays(3), null).retention()).isEqualTo(Duration.ofDays(3));
    }

    @Test
    void toStringNeverShowsTheSecrets() {
        StripeProperties p = new StripeProperties("whsec_very_secret", "sk_live_secret", null, null, null, null, null);
        assertThat(p.toString()).doesNotContain("whsec_very_secret", "sk_live_secret");
    }
}
