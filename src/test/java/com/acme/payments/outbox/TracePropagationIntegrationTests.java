package com.acme.payments.outbox;

import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import com.acme.payments.support.Checkouts;
import com.acme.payments.support.LogCapture;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * One request can be followed across the system. The trace id the service logs for an
 * inbound request is the one in the {@code traceparent} it sends on: to the PSP during the checkout, and
 * to the sink when the relay later delivers the effect that request committed (another thread, and
 * possibly another instance: the trace travels in the outbox row).
 */
class TracePropagationIntegrationTests extends OutboxIntegrationTest {

    @Autowired
    private ApplicationContext context;

    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]");

    @Test
    @DisplayName("the PSP call and the sink delivery carry the trace id logged for the inbound request")
    void traceIdFollowsTheRequestToThePspAndTheSink() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("12.00", "EUR");
        String paymentId = "pay-" + order.orderRef();

        try (LogCapture logs = new LogCapture("com.acme.payments")) {
            Checkouts.checkOut(shop, psp, jdbc, order.orderRef(), paymentId, "PENDING", "12.00");
            String checkoutTrace = logs.first("checkout attempt claimed orderRef=" + order.orderRef()).mdc()
                    .get("traceId");
            List<LoggedRequest> creates = psp.findAll(postRequestedFor(urlEqualTo("/api/v1/payments")));
            assertThat(creates).hasSize(1);
            assertThat(checkoutTrace).isNotBlank().isEqualTo(traceIdOf(creates.get(0)));

            String webhook = payment(paymentId, null, "DEPOSIT", "COMPLETED", "12.00", "EUR");
            assertThat(shop.webhook(webhook).status()).isEqualTo(200);
            var applied = logs.first("psp webhook paymentId=" + paymentId);
            assertThat(applied.message()).endsWith("outcome=applied");
            String webhookTrace = applied.mdc().get("traceId");
            assertThat(webhookTrace).isNotBlank().isNotEqualTo(checkoutTrace);

            relay.runUntilIdle(Duration.ofSeconds(10));
            List<LoggedRequest> deliveries = psp.findAll(postRequestedFor(urlPathEqualTo("/sinks/fulfilment"))
                    .withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(paymentId + ":order_paid")));
            assertThat(deliveries).hasSize(1);
            assertThat(traceIdOf(deliveries.get(0))).isEqualTo(webhookTrace);
            // a client span of its own, not the webhook's span replayed
            assertThat(spanIdOf(deliveries.get(0))).isNotEqualTo(applied.mdc().get("spanId"));
        }
    }

    @Test
    @DisplayName("without an OTLP endpoint no span exporter exists: nothing is sent, nothing fails in the logs")
    void noExporterWithoutAnEndpoint() {
        assertThat(context.getBeansOfType(SpanExporter.class)).isEmpty();
    }

    private static String traceIdOf(LoggedRequest request) {
        return traceparent(request).group(1);
    }

    private static String spanIdOf(LoggedRequest request) {
        return traceparent(request).group(2);
    }

    private static Matcher traceparent(LoggedRequest request) {
        String header = request.getHeader("traceparent");
        assertThat(header).as("traceparent on " + request.getUrl()).isNotNull();
        Matcher m = TRACEPARENT.matcher(header);
        assertThat(m.matches()).as("W3C traceparent: " + header).isTrue();
        return m;
    }
}
