package com.acme.payments.refund;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.sweep.Polls;
import com.acme.pspsim.PspSimulatorApplication;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PSP Gateway (the default provider) as the running simulator: an abandoned refund or attempt is never
 * sent again — the abandon's last question and the month-long watch only read
 * ({@code GET /api/v1/payments?referenceId.eq=}), counted by the simulator's {@code createPosts} — and a
 * create lost before it executed is never sent again either (the Gateway does not deduplicate on our
 * reference, so a refusal of a replay is an answer the service never asks for).
 */
class GatewayAbandonedSimulatorIntegrationTests extends IntegrationTest {

    static final String ADMIN_TOKEN = "gateway-sim-admin";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private static ConfigurableApplicationContext simulator;
    private static String simulatorUrl;

    /** The service's test key and signing key; webhooks go to the test profile's unreachable public URL. */
    static synchronized String simulatorUrl() {
        if (simulator == null) {
            simulator = PspSimulatorApplication.start(0, Map.of("pspsim.api-key", "test-psp-key",
                    "pspsim.signing-key", "test-signing-key", "pspsim.signature-encoding", "hex",
                    "pspsim.admin-token", ADMIN_TOKEN));
            simulatorUrl = "http://localhost:" + simulator.getEnvironment().getProperty("local.server.port");
        }
        return simulatorUrl;
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
            simulator = null;
        }
    }

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    /** The base class's PSP address (its WireMock) passes every call through to the simulator, untouched. */
    @BeforeEach
    void resetSimulator() {
        sim("POST", "/sim/reset", null);
        psp.stubFor(any(anyUrl()).willReturn(aResponse().proxiedFrom(simulatorUrl())));
    }

    @Test
    @DisplayName("abandoned means never sent again (Gateway): a lost refund create, abandoned, watched — one POST in all, the remainder refunded once")
    void abandonedRefundIsNeverSentAgain() {
        String orderRef = paidOrder("20.00");
        sim("POST", "/sim/faults", """
                {"operation":"create","fault":"error-before","paymentType":"REFUND"}""");
        Response unknown = refund(orderRef, "lost-1", "8.00");
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(409);
        String reference = refundReference(orderRef, "lost-1");

        Response abandoned = http().bearer(Shop.ADMIN_KEY).post("/api/admin/refunds/" + reference + "/abandon", "{}");
        assertThat(abandoned.status()).as(abandoned.body()).isEqualTo(200);
        sim("DELETE", "/sim/faults", null);
        jdbc.sql("""
                UPDATE psp_refund_attempt SET abandoned_at = now() - interval '1 hour', updated_at = now() - interval '1 hour'
                 WHERE reference_id = :r""").param("r", reference).update();
        polls.run("refund-straggler-poll");

        assertThat(jdbc.sql("SELECT last_polled_at IS NOT NULL FROM psp_refund_attempt WHERE reference_id = :r")
                .param("r", reference).query(Boolean.class).single()).as("the watch asked about it").isTrue();
        assertThat(createPosts(reference)).as("the lost create only: never sent again").isEqualTo(1);

        Response remainder = refund(orderRef, "remainder-1", "20.00");
        assertThat(remainder.status()).as(remainder.body()).isEqualTo(201);
        polls.run("refund-straggler-poll");
        assertThat(refundsAtPsp()).as("the customer is refunded once").isEqualTo(1);
        assertThat(createPosts(reference)).isEqualTo(1);
    }

    @Test
    @DisplayName("abandoned means never sent again (Gateway): a lost deposit create, abandoned, watched — one POST in all")
    void abandonedAttemptIsNeverSentAgain() {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder("12.50", "EUR").orderRef();
        sim("POST", "/sim/faults", """
                {"operation":"create","fault":"error-before","paymentType":"DEPOSIT","times":1}""");
        assertThat(shop.checkout(orderRef).status()).isEqualTo(409);
        String reference = latestAttempt(orderRef);

        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/attempts/" + reference + "/abandon", "{}").status())
                .isEqualTo(200);
        jdbc.sql("UPDATE psp_attempt SET abandoned_at = now() - interval '1 hour' WHERE reference_id = :r")
                .param("r", reference).update();
        polls.run("abandoned-watch");

        assertThat(createPosts(reference)).as("the lost create only: never sent again").isEqualTo(1);
        Response again = shop.checkout(orderRef);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(createPosts(reference)).isEqualTo(1);
    }

    /** Paid on the simulator's hosted page, learnt on the customer's return. */
    private String paidOrder(String amount) {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder(amount, "EUR").orderRef();
        Response checkout = shop.checkout(orderRef);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String payment = jdbc.sql("""
                SELECT a.psp_payment_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref ORDER BY a.id DESC LIMIT 1""").param("ref", orderRef).query(String.class)
                .single();
        HttpResponse<String> paid = call("POST", "/hosted/" + payment + "/pay", "", null);
        assertThat(paid.statusCode()).as(paid.body()).isLessThan(400);
        Response back = http().bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef + "/return");
        assertThat(back.json().path("status").asString()).as(back.body()).isEqualTo("PAID");
        return orderRef;
    }

    /** Refund keys are the shop's, unique per order only. */
    private String refundReference(String orderRef, String key) {
        return jdbc.sql("""
                SELECT r.reference_id FROM psp_refund_attempt r JOIN orders o ON o.id = r.order_id
                 WHERE o.order_ref = :ref AND r.refund_key = :key""").param("ref", orderRef).param("key", key)
                .query(String.class).single();
    }

    private Response refund(String orderRef, String key, String amount) {
        return http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", key).post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\",\"reason\":\"customer asked\"}");
    }

    private String latestAttempt(String orderRef) {
        return jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref
                 ORDER BY a.id DESC LIMIT 1""").param("ref", orderRef).query(String.class).single();
    }

    private int createPosts(String reference) {
        return sim("GET", "/sim/payments?referenceId=" + reference, null).path("createPosts").path(reference).asInt();
    }

    private int refundsAtPsp() {
        return (int) sim("GET", "/sim/payments", null).path("payments").values().stream()
                .filter(p -> "REFUND".equals(p.path("paymentType").asString(""))).count();
    }

    private static JsonNode sim(String method, String path, String body) {
        HttpResponse<String> response = call(method, path, body, ADMIN_TOKEN);
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isLessThan(300);
        return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
    }

    private static HttpResponse<String> call(String method, String path, String body, String bearer) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(simulatorUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        if (body != null) {
            request.header("Content-Type", body.isEmpty() ? "application/x-www-form-urlencoded" : "application/json");
        }
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
