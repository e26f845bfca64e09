package com.acme.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.BoundSettings;
import com.zaxxer.hikari.HikariDataSource;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The bulkhead's size: half the pool unless set, and never the whole pool (checked before anything runs). */
class StripeBulkheadTests {

    @Test
    void permitsDefaultToHalfThePoolAndMustStayBelowIt() {
        assertThat(bulkhead(10, Map.of()).permits()).isEqualTo(5);
        assertThat(bulkhead(3, Map.of()).permits()).isEqualTo(1);
        assertThat(bulkhead(1, Map.of()).permits()).as("a pool of one leaves nothing to bound").isEqualTo(1);
        assertThat(bulkhead(10, Map.of("stripe.bulkhead.permits", "9")).permits()).isEqualTo(9);
        assertThatThrownBy(() -> bulkhead(10, Map.of("stripe.bulkhead.permits", "10")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stripe.bulkhead.permits (10) must be below")
                .hasMessageContaining("maximum-pool-size = 10");
    }

    private static StripeBulkhead bulkhead(int pool, Map<String, String> settings) {
        HikariDataSource dataSource = new HikariDataSource(); // never started: only its configured size is read
        dataSource.setMaximumPoolSize(pool);
        StripeProperties properties = BoundSettings.bind(StripeProperties.class, "stripe", settings);
        return new StripeBulkhead(properties, dataSource, new SimpleMeterRegistry());
    }
}
