package com.acme.payments.ops;

import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.acme.payments.outbox.OutboxRelay;
import com.acme.payments.support.Checkouts;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.OpsQueries;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.Shop;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Every metric the Grafana dashboard and the alert rules read exists in a real scrape of
 * {@code /actuator/prometheus}. Meters registered at start are there at once; the few that appear with
 * their first event (outbox deliveries and latency, HTTP client and server timers) get that event first:
 * a checkout, its webhook and the relay's delivery — the demo flow the packaged-jar smoke test also runs.
 */
class OpsMetricsIntegrationTests extends IntegrationTest {

    @Autowired
    private OutboxRelay relay;
    @Autowired
    private JdbcClient jdbc;
    @Autowired
    private MeterRegistry meters;

    @DynamicPropertySource
    static void sinks(DynamicPropertyRegistry registry) {
        registry.add("payments.outbox.sinks.fulfilment-url", () -> PspStub.baseUrl() + "/ops-sinks/fulfilment");
        registry.add("payments.outbox.sinks.notify-url", () -> PspStub.baseUrl() + "/ops-sinks/notify");
        registry.add("payments.outbox.sinks.conversion-url", () -> PspStub.baseUrl() + "/ops-sinks/conversion");
    }

    @Test
    @DisplayName("every metric the dashboard and the alert rules read is in a real scrape")
    void everyQueriedMetricIsExported() throws IOException {
        generateTraffic();
        Set<String> scraped = OpsQueries.scrapedNames(http().get("/actuator/prometheus").body());
        SoftAssertions softly = new SoftAssertions();
        for (Path file : new Path[] { OpsFilesTests.DASHBOARD, OpsFilesTests.ALERTS }) {
            Set<String> missing = new TreeSet<>(OpsQueries.metricNames(file));
            missing.removeAll(scraped);
            missing.removeAll(OpsQueries.PROMETHEUS_SERIES);
            softly.assertThat(missing).as("metrics %s reads that the service does not export", file).isEmpty();
        }
        softly.assertAll();
    }

    private void generateTraffic() {
        psp.stubFor(post(urlPathMatching("/ops-sinks/.*")).willReturn(aResponse().withStatus(200)));
        Shop shop = new Shop(http());
        var order = shop.createOrder("7.00", "EUR");
        String paymentId = "pay-" + order.orderRef();
        Checkouts.checkOut(shop, psp, jdbc, order.orderRef(), paymentId, "PENDING", "7.00");
        assertThat(shop.webhook(payment(paymentId, null, "DEPOSIT", "COMPLETED", "7.00", "EUR")).status())
                .isEqualTo(200);
        relay.runUntilIdle(Duration.ofSeconds(10));
        psp.verify(postRequestedFor(urlPathEqualTo("/ops-sinks/fulfilment")));
        // the scheduled-task timer appears when the first scheduled turn ends (the relay's, 1 s after start)
        await().atMost(Duration.ofSeconds(60))
                .until(() -> meters.find("tasks.scheduled.execution").timer() != null);
    }
}
