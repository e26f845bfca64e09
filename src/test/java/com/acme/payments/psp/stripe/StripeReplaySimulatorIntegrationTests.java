package com.acme.payments.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.sweep.Polls;
import com.acme.pspsim.PspSimulatorApplication;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code PSP_PROVIDER=stripe} against the running simulator's Stripe surface (http-contract.md, "Money the
 * service did not start, and answers learnt late"): an abandoned refund is never sent again — neither the
 * abandon's last question nor the month-long watch replays {@code POST /v1/refunds}, counted per
 * Idempotency-Key by the simulator — and a same-key replay that Stripe refuses outright settles the refund
 * or the checkout attempt FAILED at once, as the first call's refusal would have.
 */
@TestPropertySource(properties = { "payments.psp.provider=stripe", "stripe.api-key=" + StripeReplaySimulatorIntegrationTests.KEY })
class StripeReplaySimulatorIntegrationTests extends IntegrationTest {

    static final String KEY = "sk_test_replay_rules";
    static final String ADMIN_TOKEN = "replay-sim-admin";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private static ConfigurableApplicationContext simulator;
    private static String simulatorUrl;

    @DynamicPropertySource
    static void stripeBase(DynamicPropertyRegistry registry) {
        registry.add("stripe.api-base", StripeReplaySimulatorIntegrationTests::simulatorUrl);
    }

    /** Started once for the class, before the service's context reads its URL; events are recorded, not sent. */
    static synchronized String simulatorUrl() {
        if (simulator == null) {
            simulator = PspSimulatorApplication.start(0, Map.of("pspsim.api-key", "replay-gateway-key",
                    "pspsim.signing-key", "replay-signing-key", "pspsim.admin-token", ADMIN_TOKEN,
                    "pspsim.stripe.api-key", KEY, "pspsim.stripe.webhook-secret", "whsec_test_secret"));
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

    @BeforeEach
    void resetSimulator() {
        sim("POST", "/sim/reset", null);
    }

    @Test
    @DisplayName("abandoned means never sent again: a lost refund create, abandoned, watched — no POST /v1/refunds after the abandon, the remainder refunded once")
    void abandonedRefundIsNeverSentAgain() {
        String orderRef = paidOrder("20.00");
        String intent = paymentIntent(orderRef);
        // every refund create about this order is lost before it executes: 503, nothing stored under its key
        faults("""
                {"operation":"stripe-refund-create","fault":"error-before","referenceId":"%s"}""".formatted(orderRef));
        Response unknown = refund(orderRef, "lost-1", "8.00");
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(409);
        String reference = refundReference(orderRef, "lost-1");
        assertThat(refundState(reference)).isEqualTo("UNKNOWN");
        int postsBeforeAbandon = posts(reference);
        assertThat(postsBeforeAbandon).as("the create and its same-key replays while it was ours").isPositive();

        Response abandoned = http().bearer(Shop.ADMIN_KEY).post("/api/admin/refunds/" + reference + "/abandon", "{}");
        assertThat(abandoned.status()).as(abandoned.body()).isEqualTo(200);
        assertThat(posts(reference)).as("the abandon's last question only reads").isEqualTo(postsBeforeAbandon);

        sim("DELETE", "/sim/faults", null); // Stripe would now create it, were the create sent again
        jdbc.sql("""
                UPDATE psp_refund_attempt SET abandoned_at = now() - interval '1 hour', updated_at = now() - interval '1 hour'
                 WHERE reference_id = :r""").param("r", reference).update();
        polls.run("refund-straggler-poll");

        assertThat(jdbc.sql("SELECT last_polled_at IS NOT NULL FROM psp_refund_attempt WHERE reference_id = :r")
                .param("r", reference).query(Boolean.class).single()).as("the watch asked about it").isTrue();
        assertThat(posts(reference)).as("the watch only reads: no POST /v1/refunds").isEqualTo(postsBeforeAbandon);
        assertThat(refundsAtStripe(intent)).isZero();
        assertThat(refundState(reference)).isEqualTo("FAILED");

        Response remainder = refund(orderRef, "remainder-1", "20.00");
        assertThat(remainder.status()).as(remainder.body()).isEqualTo(201);
        polls.run("refund-straggler-poll");
        assertThat(refundsAtStripe(intent)).as("the customer is refunded once").isEqualTo(1);
        assertThat(refundedAtStripe(intent)).isEqualTo(2000);
        assertThat(posts(reference)).isEqualTo(postsBeforeAbandon);
    }

    @Test
    @DisplayName("abandoned means never sent again: a lost session create, abandoned, watched — no POST /v1/checkout/sessions after the abandon")
    void abandonedAttemptIsNeverSentAgain() {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder("12.50", "EUR").orderRef();
        faults("""
                {"operation":"stripe-session-create","fault":"error-before","referenceId":"%s"}""".formatted(orderRef));
        Response unknown = shop.checkout(orderRef);
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(409);
        String reference = (String) latestAttempt(orderRef).get("reference_id");
        int postsBeforeAbandon = posts(reference);

        Response abandoned = http().bearer(Shop.ADMIN_KEY).post("/api/admin/attempts/" + reference + "/abandon", "{}");
        assertThat(abandoned.status()).as(abandoned.body()).isEqualTo(200);
        assertThat(posts(reference)).as("the abandon's last question only reads").isEqualTo(postsBeforeAbandon);

        sim("DELETE", "/sim/faults", null);
        jdbc.sql("UPDATE psp_attempt SET abandoned_at = now() - interval '1 hour' WHERE reference_id = :r")
                .param("r", reference).update();
        polls.run("abandoned-watch");

        assertThat(jdbc.sql("SELECT last_polled_at IS NOT NULL FROM psp_attempt WHERE reference_id = :r")
                .param("r", reference).query(Boolean.class).single()).as("the watch asked about it").isTrue();
        assertThat(posts(reference)).as("the watch only reads").isEqualTo(postsBeforeAbandon);
        assertThat(sessionsOf(orderRef)).isZero();

        Response again = shop.checkout(orderRef);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(sessionsOf(orderRef)).as("one session, the new attempt's").isEqualTo(1);
    }

    @Test
    @DisplayName("a refusal learnt on a replay is a refusal: the refund's replay answered 400 → FAILED at once, reservation released, a later refund accepted")
    void refundReplayRefusedFailsAtOnce() {
        String orderRef = paidOrder("20.00");
        String intent = paymentIntent(orderRef);
        // the first send is lost (503, nothing stored); the same-key replay is refused outright
        faults("""
                [{"operation":"stripe-refund-create","fault":"refuse-replay","referenceId":"%s","times":1},
                 {"operation":"stripe-refund-create","fault":"error-before","referenceId":"%s","times":1}]"""
                .formatted(orderRef, orderRef));

        Response refused = refund(orderRef, "refused-1", "8.00");

        String reference = refundReference(orderRef, "refused-1");
        assertThat(refundState(reference)).as(refused.body()).isEqualTo("FAILED");
        assertThat(jdbc.sql("SELECT error_code FROM psp_refund_attempt WHERE reference_id = :r").param("r", reference)
                .query(String.class).single()).isEqualTo("replay_refused");
        assertThat(refunded(orderRef)).as("the reservation is released").isEqualByComparingTo("0");
        assertThat(posts(reference)).isEqualTo(2);

        Response later = refund(orderRef, "later-1", "20.00");
        assertThat(later.status()).as(later.body()).isEqualTo(201);
        assertThat(later.json().path("state").asString()).isEqualTo("DONE");
        assertThat(refundsAtStripe(intent)).isEqualTo(1);
        assertThat(posts(reference)).as("a refused refund is never sent again").isEqualTo(2);
    }

    @Test
    @DisplayName("a refusal learnt on a replay is a refusal: the session's replay answered 400 → attempt FAILED at once, the order payable")
    void checkoutReplayRefusedFailsAtOnce() {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder("12.50", "EUR").orderRef();
        faults("""
                [{"operation":"stripe-session-create","fault":"refuse-replay","referenceId":"%s","times":1},
                 {"operation":"stripe-session-create","fault":"error-before","referenceId":"%s","times":1}]"""
                .formatted(orderRef, orderRef));

        Response refused = shop.checkout(orderRef);

        Map<String, Object> first = latestAttempt(orderRef);
        assertThat(first.get("state")).as(refused.body()).isEqualTo("FAILED");
        assertThat(first.get("failure_reason")).isEqualTo("rejected");
        assertThat(first.get("error_code")).isEqualTo("replay_refused");
        assertThat(refused.status()).as("answered as the first call's refusal would have been").isEqualTo(502);
        assertThat(refused.problemSlug()).isEqualTo("psp-rejected");
        assertThat(refused.json().path("errorCode").asString()).isEqualTo("replay_refused");
        assertThat(posts((String) first.get("reference_id"))).isEqualTo(2);

        Response again = shop.checkout(orderRef);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("redirectUrl").asString()).isNotBlank();
        assertThat(latestAttempt(orderRef).get("state")).isEqualTo("READY");
        assertThat(sessionsOf(orderRef)).as("only the second attempt's session was made").isEqualTo(1);
        assertThat(posts((String) first.get("reference_id"))).as("the refused attempt is never sent again").isEqualTo(2);
    }

    /** An order paid through a session completed on the simulator, learnt on the customer's return. */
    private String paidOrder(String amount) {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder(amount, "EUR").orderRef();
        Response checkout = shop.checkout(orderRef);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String session = (String) latestAttempt(orderRef).get("psp_payment_id");
        sim("POST", "/sim/stripe/sessions/" + session + "/complete", "{\"outcome\":\"pay\"}");
        Response back = http().bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef + "/return");
        assertThat(back.json().path("status").asString()).as(back.body()).isEqualTo("PAID");
        return orderRef;
    }

    private String paymentIntent(String orderRef) {
        return jdbc.sql("SELECT psp_payment_id FROM orders WHERE order_ref = :ref").param("ref", orderRef)
                .query(String.class).single();
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

    private String refundState(String reference) {
        return jdbc.sql("SELECT state FROM psp_refund_attempt WHERE reference_id = :r").param("r", reference)
                .query(String.class).single();
    }

    private BigDecimal refunded(String orderRef) {
        return jdbc.sql("SELECT refunded_amount FROM orders WHERE order_ref = :ref").param("ref", orderRef)
                .query(BigDecimal.class).single();
    }

    private Map<String, Object> latestAttempt(String orderRef) {
        return jdbc.sql("""
                SELECT a.* FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref
                 ORDER BY a.id DESC LIMIT 1""").param("ref", orderRef).query().singleRow();
    }

    /** How many POSTs the simulator saw with this Idempotency-Key (lost, refused and replayed ones included). */
    private int posts(String key) {
        return sim("GET", "/sim/stripe/idempotency-keys", null).path(key).asInt(0);
    }

    private int refundsAtStripe(String intent) {
        return (int) sim("GET", "/sim/stripe/refunds", null).values().stream()
                .filter(r -> intent.equals(r.path("payment_intent").asString(""))).count();
    }

    private long refundedAtStripe(String intent) {
        return sim("GET", "/sim/stripe/refunds", null).values().stream()
                .filter(r -> intent.equals(r.path("payment_intent").asString("")))
                .mapToLong(r -> r.path("amount").asLong()).sum();
    }

    private int sessionsOf(String orderRef) {
        return (int) sim("GET", "/sim/stripe/sessions", null).values().stream()
                .filter(s -> orderRef.equals(s.path("metadata").path("orderRef").asString(""))).count();
    }

    private void faults(String rules) {
        sim("POST", "/sim/faults", rules);
    }

    private static JsonNode sim(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(simulatorUrl() + path))
                .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + ADMIN_TOKEN)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isLessThan(300);
            return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
