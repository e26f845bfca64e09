package com.acme.payments.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * What the observations cost without changing a series the dashboard or the alert rules read: a health
 * check or a scrape costs no span but keeps its {@code http_server_requests} series (the dashboard's
 * requests-by-status panel sums every URI); an observation keeps its timer, not the long-task timer beside it. A
 * span processor of the test's own records what ends.
 */
@Import(ObservationCostIntegrationTests.Spans.class)
class ObservationCostIntegrationTests extends IntegrationTest {

    @Autowired
    private Spans spans;

    @BeforeEach
    void clear() {
        spans.ended.clear();
    }

    @Test
    @DisplayName("health and scrape requests are timed but not traced; API requests are both")
    void actuatorRequestsAreTimedNotTraced() {
        assertThat(http().get("/actuator/health").status()).isEqualTo(200);
        assertThat(http().get("/actuator/prometheus").status()).isEqualTo(200);
        assertThat(new Shop(http()).order("no-such-order").status()).isEqualTo(404);

        // a span ends in the filter after the answer went out: wait for the API request's, the last one sent
        await().atMost(Duration.ofSeconds(10)).untilAsserted(
                () -> assertThat(spans.ended).as("spans ended").anySatisfy(s -> assertThat(s).contains("/api/orders")));
        assertThat(spans.ended).as("spans ended").noneSatisfy(s -> assertThat(s).contains("/actuator"));
        String scrape = http().get("/actuator/prometheus").body();
        assertThat(scrape).containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/actuator/health\"")
                .containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/actuator/prometheus\"");
    }

    @Test
    @DisplayName("an observation records its timer, and no long-task timer beside it")
    void timersWithoutLongTaskTimers() {
        assertThat(new Shop(http()).order("no-such-order").status()).isEqualTo(404);
        String scrape = http().get("/actuator/prometheus").body();
        assertThat(scrape).containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/api/orders/\\{orderRef}\"")
                .doesNotContain("_active_seconds");
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Spans {

        final List<String> ended = new CopyOnWriteArrayList<>();

        @Bean
        SpanProcessor recordingSpanProcessor() {
            return new SpanProcessor() {
                @Override
                public void onStart(Context parent, ReadWriteSpan span) {
                }

                @Override
                public boolean isStartRequired() {
                    return false;
                }

                @Override
                public void onEnd(ReadableSpan span) {
                    ended.add(span.getName() + " " + span.toSpanData().getAttributes());
                }

                @Override
                public boolean isEndRequired() {
                    return true;
                }

                @Override
                public CompletableResultCode shutdown() {
                    return CompletableResultCode.ofSuccess();
                }
            };
        }
    }
}
