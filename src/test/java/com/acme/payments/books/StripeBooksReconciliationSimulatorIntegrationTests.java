package com.acme.payments.books;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Shop;
import com.acme.payments.support.SimulatorStack;

import tools.jackson.databind.JsonNode;

/**
 * Reconciliation runs against the simulator's Stripe surface ({@code PSP_PROVIDER=stripe}), end to end over
 * HTTP: {@code GET /v1/payment_intents} and {@code GET /v1/refunds} by {@code created}, two a page. Stripe
 * counts time in whole seconds, so each test's window starts at a second no earlier test wrote in.
 */
class StripeBooksReconciliationSimulatorIntegrationTests {

    private static final String SIM_ADMIN = "sim-admin";

    private static SimulatorStack stack;
    private static Http sim;
    private static Http api;
    private static JdbcClient jdbc;

    @BeforeAll
    static void start() {
        stack = SimulatorStack.start(SIM_ADMIN, serviceUrl -> Map.of(
                "pspsim.stripe.api-key", "sk_test_key",
                "pspsim.stripe.webhook-secret", "whsec_test_secret",
                "pspsim.stripe.webhook-url", serviceUrl + "/webhooks/stripe",
                "pspsim.stripe.webhook-retry-delays", "200ms,500ms,1s",
                "pspsim.stripe.refund-settle-delay", "200ms"),
                (serviceUrl, simulatorUrl) -> Map.of(
                        "payments.psp.provider", "stripe",
                        "stripe.api-base", simulatorUrl,
                        "payments.books.page-size", 2,
                        "payments.books.retries", 3,
                        "payments.books.retry-delay", "10ms",
                        "payments.books.retry-max-delay", "50ms"));
        sim = stack.sim();
        api = stack.api();
        jdbc = stack.jdbc();
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @BeforeEach
    void noFaults() {
        assertThat(sim.send("DELETE", "/sim/faults", null).status()).isEqualTo(204);
    }

    static Http admin() {
        return api.bearer(Shop.ADMIN_KEY);
    }

    static JsonNode order(String orderRef) {
        return api.bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef).json();
    }

    /** The start of a second no earlier write can be in (Stripe's {@code created} is in whole seconds). */
    static Instant freshSecond() {
        long now = Instant.now().getEpochSecond();
        await().atMost(Duration.ofSeconds(5)).until(() -> Instant.now().getEpochSecond() > now);
        return Instant.ofEpochSecond(Instant.now().getEpochSecond());
    }

    /** A PAID order: its session paid through the simulator's hook; {orderRef, PaymentIntent}. */
    static String[] paidOrder(String amount) {
        String orderRef = new Shop(api).createOrder(amount, "EUR").orderRef();
        Response checkout = new Shop(api).checkout(orderRef);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String session = jdbc.sql("SELECT psp_payment_id FROM orders WHERE order_ref = :r").param("r", orderRef)
                .query(String.class).single();
        Response paid = sim.post("/sim/stripe/sessions/" + session + "/complete", "{\"outcome\":\"pay\"}");
        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(order(orderRef).path("status").asString()));
        return new String[] { orderRef, paid.json().path("payment_intent").asString() };
    }

    /** A DONE refund of the order whose success Stripe has told us of; its id. */
    static String refunded(String orderRef, String amount) {
        Response refund = admin().header("Idempotency-Key", "k-" + UUID.randomUUID())
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
        assertThat(refund.status()).as(refund.body()).isEqualTo(201);
        String id = refund.json().path("pspPaymentId").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(jdbc.sql(
                "SELECT psp_state FROM psp_refund_attempt WHERE psp_payment_id = :id").param("id", id)
                .query(String.class).optional().orElse(null)));
        return id;
    }

    static JsonNode reconciled(Instant from, Instant to) {
        Response started = admin().post("/api/admin/reconciliations",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\"}");
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        String id = started.json().path("id").asString();
        await().atMost(Duration.ofSeconds(60)).until(() -> !"running".equals(run(id).path("state").asString()));
        return run(id);
    }

    static JsonNode run(String id) {
        return admin().get("/api/admin/reconciliations/" + id).json();
    }

    static List<String> kinds(JsonNode run) {
        List<String> kinds = new ArrayList<>();
        run.path("mismatches").forEach(m -> kinds.add(m.path("kind").asString() + " " + m.path("pspPaymentId").asString()
                + " " + m.path("orderRef").asString(null)));
        return kinds;
    }

    @Test
    @DisplayName("a clean window at Stripe: done, no mismatch, PaymentIntents and refunds counted on both sides, over several pages; another integration's PaymentIntent is not ours")
    void cleanWindow() {
        Instant from = freshSecond();
        String[] a = paidOrder("10.00");
        paidOrder("20.00");
        paidOrder("30.00");
        refunded(a[0], "4.00");
        assertThat(sim.post("/sim/stripe/payment_intents/unseen", "{\"amount\":5000,\"currency\":\"eur\"}").status())
                .as("billing's, say: no metadata[attempt]").isEqualTo(200);
        JsonNode run = reconciled(from, Instant.now().plusMillis(1));

        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(run.path("mismatches").size()).as(run.toString()).isZero();
        assertThat(run.path("pspRecords").asInt()).as("three PaymentIntents and a refund").isEqualTo(4);
        assertThat(run.path("ourRecords").asInt()).isEqualTo(4);
    }

    @Test
    @DisplayName("every page of the listing is read: a PaymentIntent of ours never told, on the last page (newest first), is found")
    void everyPageIsRead() {
        Instant from = freshSecond();
        String first = sim.post("/sim/stripe/payment_intents/unseen",
                "{\"amount\":3500,\"currency\":\"eur\",\"attempt\":\"chk_unseen_" + UUID.randomUUID() + "\"}").json()
                .path("id").asString();
        paidOrder("31.00");
        paidOrder("32.00");
        paidOrder("33.00");
        paidOrder("34.00");
        JsonNode run = reconciled(from, Instant.now().plusMillis(1));
        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(kinds(run)).as("newest first, two a page: the third page").containsExactly("missing_here " + first + " null");
        assertThat(run.path("pspRecords").asInt()).isEqualTo(5);
    }

    @Test
    @DisplayName("the four kinds at Stripe: a PaymentIntent of ours never told, an amount received changed, a refund failed without an event, a PaymentIntent it lost")
    void fourKinds() {
        Instant from = freshSecond();
        String unseen = sim.post("/sim/stripe/payment_intents/unseen",
                "{\"amount\":1200,\"currency\":\"eur\",\"attempt\":\"chk_unseen_" + UUID.randomUUID() + "\"}").json()
                .path("id").asString();
        String[] changed = paidOrder("15.00");
        assertThat(sim.post("/sim/stripe/payment_intents/" + changed[1] + "/quietly", "{\"amount_received\":1400}")
                .status()).isEqualTo(200);
        String[] refundedOrder = paidOrder("16.00");
        String refund = refunded(refundedOrder[0], "6.00");
        assertThat(sim.post("/sim/stripe/refunds/" + refund + "/quietly_fail", "{}").status()).isEqualTo(200);
        String[] lost = paidOrder("17.00");
        assertThat(sim.send("DELETE", "/sim/stripe/objects/" + lost[1], null).status()).isEqualTo(204);

        JsonNode run = reconciled(from, Instant.now().plusMillis(1));

        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(kinds(run)).as(run.toString()).containsExactlyInAnyOrder(
                "missing_here " + unseen + " null",
                "amount_mismatch " + changed[1] + " " + changed[0],
                "state_mismatch " + refund + " " + refundedOrder[0],
                "missing_there " + lost[1] + " " + lost[0]);
        assertThat(order(changed[0]).path("status").asString()).as("it books nothing").isEqualTo("PAID");
    }

    @Test
    @DisplayName("Stripe's 429 (Retry-After) and 5xx on either listing are asked again and the run finishes")
    void rateLimitsAndOutagesAreRetried() {
        Instant from = freshSecond();
        String[] a = paidOrder("11.00");
        paidOrder("12.00");
        refunded(a[0], "1.00");
        assertThat(sim.post("/sim/faults", """
                [{"operation":"stripe-intent-list","fault":"error-before","status":429,"times":2},
                 {"operation":"stripe-refund-list","fault":"error-before","status":500,"times":2}]""").status())
                .isEqualTo(200);
        JsonNode run = reconciled(from, Instant.now().plusMillis(1));
        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(run.path("pspRecords").asInt()).isEqualTo(3);
        assertThat(run.path("mismatches").size()).isZero();
        assertThat(sim.get("/sim/faults").json().size()).as("every fault used up").isZero();
    }
}
