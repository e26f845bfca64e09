package com.acme.payments.outbox;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.StatementTrace.traced;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.support.ShopEventReceiver;
import com.acme.payments.support.ShopEventReceiver.Delivery;
import com.acme.payments.support.StandardWebhooksVerifier;
import com.acme.payments.support.StatementTrace;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;

import tools.jackson.databind.JsonNode;

/**
 * "Events for the shop": the walk of an order's life through the service (the PSP played by WireMock), its
 * events delivered by the relay to one endpoint with the Standard Webhooks headers, each transition's event
 * once, an order's events in the order they happened, every signature verified by a Standard Webhooks check of
 * the tests' own ({@link StandardWebhooksVerifier}) with either of the two rolling secrets. Time moves for the
 * relay as in the other outbox tests: rows are made due and their first failed try moved back.
 */
class ShopEventsIntegrationTests extends IntegrationTest {

    @Autowired
    OutboxRelay relay;
    @Autowired
    JdbcClient jdbc;

    @DynamicPropertySource
    static void shopEvents(DynamicPropertyRegistry registry) {
        ShopEventReceiver.register(registry);
    }

    @BeforeEach
    void receiverAccepts() {
        ShopEventReceiver.accepting(psp);
    }

    Shop shop() {
        return new Shop(http());
    }

    Http admin() {
        return http().bearer(Shop.ADMIN_KEY);
    }

    /** Creates an order and checks it out, the PSP answering the create with {@code state}. */
    Response checkout(String orderRef, String paymentId, String state, String amount) {
        psp.stubFor(createCall().willReturn(created(paymentId, state, amount, "EUR")));
        return shop().checkout(orderRef);
    }

    Response refund(String orderRef, String key, String refundId, String state, String amount) {
        psp.stubFor(createCall().atPriority(1).withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(okJson(envelope(payment(refundId, null, "REFUND", state, amount, "EUR")))));
        return admin().header("Idempotency-Key", key).post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
    }

    void deliverAll() {
        for (int round = 0; round < 10 && pendingEvents() > 0; round++) {
            relay.runUntilIdle(Duration.ofSeconds(30));
        }
        assertThat(pendingEvents()).as("shop events left pending").isZero();
    }

    long pendingEvents() {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE kind LIKE '%.%' AND state = 'pending'")
                .query(Long.class).single();
    }

    /** Types received per order, in arrival order; retries of one event (same webhook-id) once. */
    static Map<String, List<String>> typesByOrder(List<Delivery> deliveries) {
        Map<String, List<String>> types = new LinkedHashMap<>();
        Map<String, String> lastIdByOrder = new LinkedHashMap<>();
        for (Delivery delivery : deliveries) {
            if (delivery.id().equals(lastIdByOrder.put(delivery.orderRef(), delivery.id()))) {
                continue;
            }
            types.computeIfAbsent(delivery.orderRef(), ref -> new ArrayList<>()).add(delivery.type());
        }
        return types;
    }

    static void assertSigned(Delivery delivery) throws Exception {
        long now = System.currentTimeMillis() / 1000;
        assertThat(new StandardWebhooksVerifier(ShopEventReceiver.NEW_SECRET).verify(delivery.id(),
                delivery.timestamp(), delivery.signature(), delivery.body(), now)).as("new secret").isTrue();
        assertThat(new StandardWebhooksVerifier(ShopEventReceiver.OLD_SECRET).verify(delivery.id(),
                delivery.timestamp(), delivery.signature(), delivery.body(), now)).as("old secret").isTrue();
        assertThat(new StandardWebhooksVerifier("whsec_b3RoZXIta2V5").verify(delivery.id(), delivery.timestamp(),
                delivery.signature(), delivery.body(), now)).as("another secret").isFalse();
        assertThat(new StandardWebhooksVerifier(ShopEventReceiver.NEW_SECRET).verify(delivery.id(),
                delivery.timestamp(), delivery.signature(), delivery.body(), now + 600)).as("past the tolerance")
                .isFalse();
    }

    @Test
    @DisplayName("the walk: authorize→capture, pay, decline then pay, void, refunds ok and failed, an external refund: "
            + "each event once, in order per order, signed with both rolling secrets")
    void everyTransitionSendsItsEventOnceInOrder() throws Exception {
        // authorize, then capture
        String captured = shop().createOrder("70.00", "EUR").orderRef();
        assertThat(checkout(captured, "pay-" + captured, "AUTHORIZED", "70.00").status()).isEqualTo(200);
        psp.stubFor(post(urlEqualTo("/api/v1/payments/pay-" + captured + "/capture"))
                .willReturn(okJson(envelope(payment("pay-" + captured, null, "DEPOSIT", "COMPLETED", "70.00", "EUR")))));
        Response capture = admin().post("/api/orders/" + captured + "/capture", (String) null);
        assertThat(capture.status()).isEqualTo(200);
        assertThat(admin().post("/api/orders/" + captured + "/capture", (String) null).status()).isEqualTo(409);

        // pay at once; the PSP's webhook of the same truth arrives later
        String paid = shop().createOrder("50.00", "EUR").orderRef();
        assertThat(checkout(paid, "pay-" + paid, "COMPLETED", "50.00").status()).isEqualTo(200);
        JsonNode paidView = shop().order(paid).json();
        assertThat(shop().webhook(payment("pay-" + paid, null, "DEPOSIT", "COMPLETED", "50.00", "EUR")).json()
                .path("status").asString()).isIn("applied", "duplicate");

        // declined, then paid by a new attempt
        String retried = shop().createOrder("20.00", "EUR").orderRef();
        Response declined = checkout(retried, "pay-1-" + retried, "DECLINED", "20.00");
        assertThat(declined.status()).isEqualTo(422);
        assertThat(checkout(retried, "pay-2-" + retried, "COMPLETED", "20.00").status()).isEqualTo(200);

        // authorize, then void
        String voided = shop().createOrder("30.00", "EUR").orderRef();
        assertThat(checkout(voided, "pay-" + voided, "AUTHORIZED", "30.00").status()).isEqualTo(200);
        psp.stubFor(post(urlEqualTo("/api/v1/payments/pay-" + voided + "/void"))
                .willReturn(okJson(envelope(payment("pay-" + voided, null, "DEPOSIT", "CANCELLED", "30.00", "EUR")))));
        assertThat(admin().post("/api/orders/" + voided + "/void", (String) null).json().path("status").asString())
                .isEqualTo("PAYMENT_FAILED");

        // refunds of the paid order: one completed, one declined, one made at the PSP's back office
        assertThat(refund(paid, "rk-ok-" + paid, "rf-ok-" + paid, "COMPLETED", "10.00").json().path("state")
                .asString()).isEqualTo("DONE");
        assertThat(refund(paid, "rk-no-" + paid, "rf-no-" + paid, "DECLINED", "5.00").json().path("state")
                .asString()).isEqualTo("FAILED");
        String backOffice = payment("rf-bo-" + paid, "bo-" + paid, "REFUND", "COMPLETED", "7.00", "EUR");
        backOffice = backOffice.substring(0, backOffice.length() - 1) + ",\"parentPaymentId\":\"pay-" + paid + "\"}";
        assertThat(shop().webhook(backOffice).json().path("status").asString()).isEqualTo("applied");
        assertThat(shop().webhook(backOffice).json().path("status").asString()).isEqualTo("duplicate");

        deliverAll();

        List<Delivery> deliveries = ShopEventReceiver.received(psp).stream()
                .filter(d -> List.of(captured, paid, retried, voided).contains(d.orderRef())).toList();
        assertThat(typesByOrder(deliveries)).containsExactlyInAnyOrderEntriesOf(Map.of(
                captured, List.of("payment.authorized", "payment.succeeded"),
                paid, List.of("payment.succeeded", "refund.succeeded", "refund.failed", "refund.succeeded"),
                retried, List.of("payment.failed", "payment.succeeded"),
                voided, List.of("payment.authorized", "payment.voided")));
        assertThat(deliveries).as("each event once: no retry was needed").hasSize(10)
                .extracting(Delivery::id).doesNotHaveDuplicates().allMatch(id -> id.matches("evt_[0-9a-f]{32}"));
        for (Delivery delivery : deliveries) {
            assertThat(delivery.json().path("id").asString()).isEqualTo(delivery.id());
            assertThat(delivery.json().path("createdAt").asString()).endsWith("Z");
            assertThat(delivery.request().getHeader("Idempotency-Key")).isNull();
            assertThat(delivery.request().getHeader("Payments-Signature")).isNull();
            assertSigned(delivery);
        }

        // data: the order view as GET /api/orders/{ref} answered it after the move; the refund as its look-up
        assertThat(data(deliveries, captured, "payment.succeeded")).isEqualTo(capture.json());
        assertThat(data(deliveries, paid, "payment.succeeded")).isEqualTo(paidView);
        JsonNode failed = data(deliveries, retried, "payment.failed");
        assertThat(failed.path("status").asString()).isEqualTo("PAYMENT_FAILED");
        assertThat(failed.path("errorCode").asString()).isEqualTo("card_declined");
        assertThat(data(deliveries, voided, "payment.voided")).isEqualTo(shop().order(voided).json());
        assertThat(data(deliveries, voided, "payment.authorized").path("status").asString()).isEqualTo("AUTHORIZED");
        List<JsonNode> refunds = deliveries.stream().filter(d -> d.type().startsWith("refund.")).map(Delivery::data)
                .toList();
        for (JsonNode refund : refunds) {
            assertThat(refund).isEqualTo(admin().get("/api/admin/refunds/" + refund.path("referenceId").asString())
                    .json());
        }
        assertThat(refunds).extracting(r -> r.path("pspState").asString()).containsExactly("COMPLETED", "DECLINED",
                "COMPLETED");
        assertThat(refunds.get(2).path("origin").asString()).isEqualTo("external");
        assertThat(refunds.get(2).path("orderRef").asString()).isEqualTo(paid);
    }

    @Test
    @DisplayName("a receiver down for longer than 8.5 minutes of the relay's clock gets every event once back, "
            + "in order, nothing dead")
    void aReceiverDownForLongGetsEveryEventInOrder() throws Exception {
        StubMapping down = ShopEventReceiver.down(psp);
        String first = shop().createOrder("40.00", "EUR").orderRef();
        String second = shop().createOrder("15.00", "EUR").orderRef();
        assertThat(checkout(first, "pay-" + first, "AUTHORIZED", "40.00").status()).isEqualTo(200);
        psp.stubFor(post(urlEqualTo("/api/v1/payments/pay-" + first + "/capture"))
                .willReturn(okJson(envelope(payment("pay-" + first, null, "DEPOSIT", "COMPLETED", "40.00", "EUR")))));
        assertThat(admin().post("/api/orders/" + first + "/capture", (String) null).status()).isEqualTo(200);
        assertThat(refund(first, "rk-" + first, "rf-" + first, "COMPLETED", "4.00").status()).isEqualTo(201);
        assertThat(checkout(second, "pay-" + second, "DECLINED", "15.00").status()).isEqualTo(422);

        // more failed tries than the old give-up (10), and failing for longer than its 8.5 minutes
        for (int round = 0; round < 12; round++) {
            relay.runOnce();
            makeDue(first, second);
        }
        jdbc.sql("""
                UPDATE outbox SET first_failed_at = first_failed_at - interval '9 minutes',
                                  created_at = created_at - interval '9 minutes'
                 WHERE aggregate_id IN (:refs) AND kind LIKE '%.%'
                """).param("refs", List.of(first, second)).update();
        relay.runOnce();
        assertThat(eventStates(first, second)).as("failing for 9 minutes, 13 tries: still pending")
                .isEqualTo(Map.of("pending", 4L));

        psp.removeStub(down);
        makeDue(first, second);
        deliverAll();

        assertThat(eventStates(first, second)).isEqualTo(Map.of("delivered", 4L));
        List<Delivery> deliveries = ShopEventReceiver.received(psp).stream()
                .filter(d -> List.of(first, second).contains(d.orderRef())).toList();
        assertThat(typesByOrder(deliveries)).containsExactlyInAnyOrderEntriesOf(Map.of(
                first, List.of("payment.authorized", "payment.succeeded", "refund.succeeded"),
                second, List.of("payment.failed")));
        assertThat(deliveries.stream().map(Delivery::id).distinct()).as("one webhook-id per event, on every try")
                .hasSize(4);
        assertSigned(deliveries.get(deliveries.size() - 1));
    }

    @Test
    @DisplayName("resend of a delivered event: the same webhook-id and body, signed anew")
    void aResentEventKeepsItsWebhookId() throws Exception {
        String orderRef = shop().createOrder("12.00", "EUR").orderRef();
        assertThat(checkout(orderRef, "pay-" + orderRef, "COMPLETED", "12.00").status()).isEqualTo(200);
        deliverAll();
        long id = jdbc.sql("SELECT id FROM outbox WHERE aggregate_id = :ref AND kind = 'payment.succeeded'")
                .param("ref", orderRef).query(Long.class).single();

        assertThat(http().bearer("test-anna-key").post("/api/admin/outbox/" + id + "/resend", "").status())
                .isEqualTo(202);
        deliverAll();

        List<Delivery> deliveries = ShopEventReceiver.received(psp).stream()
                .filter(d -> orderRef.equals(d.orderRef())).toList();
        assertThat(deliveries).hasSize(2);
        assertThat(deliveries.get(1).id()).isEqualTo(deliveries.get(0).id());
        assertThat(deliveries.get(1).body()).isEqualTo(deliveries.get(0).body());
        assertSigned(deliveries.get(1));
    }

    @Test
    @DisplayName("a PAID webhook with events on sends no statement more than with them off: order_paid and "
            + "payment.succeeded are one INSERT, in that order")
    void thePaidMovesEffectsAreOneStatement() {
        String orderRef = shop().createOrder("9.00", "EUR").orderRef();
        String paymentId = "pay-one-insert-" + orderRef;
        String reference = checkout(orderRef, paymentId, "CHECKOUT", "9.00").json().path("attempt")
                .path("referenceId").asString();

        StatementTrace applied = traced(
                () -> shop().webhook(payment(paymentId, reference, "DEPOSIT", "COMPLETED", "9.00", "EUR")));

        assertThat(applied.answer().json().path("status").asString()).isEqualTo("applied");
        // StatementBudgetIntegrationTests' budget for the applied webhook, there with events off
        assertThat(applied.statements()).as("statements of the applied webhook: %s", applied.queries()).isEqualTo(7);
        assertThat(jdbc.sql("SELECT kind FROM outbox WHERE aggregate_id = :ref ORDER BY id").param("ref", orderRef)
                .query(String.class).list()).containsExactly("order_paid", "payment.succeeded");
    }

    static JsonNode data(List<Delivery> deliveries, String orderRef, String type) {
        return deliveries.stream().filter(d -> d.orderRef().equals(orderRef) && d.type().equals(type)).findFirst()
                .orElseThrow().data();
    }

    void makeDue(String... orderRefs) {
        jdbc.sql("""
                UPDATE outbox SET next_attempt_at = now()
                 WHERE aggregate_id IN (:refs) AND state = 'pending' AND lease_until IS NULL
                """).param("refs", List.of(orderRefs)).update();
    }

    Map<String, Long> eventStates(String... orderRefs) {
        Map<String, Long> states = new java.util.TreeMap<>();
        jdbc.sql("""
                SELECT state, count(*) AS n FROM outbox WHERE aggregate_id IN (:refs) AND kind LIKE '%.%' GROUP BY state
                """).param("refs", List.of(orderRefs))
                .query((rs, n) -> states.put(rs.getString("state"), rs.getLong("n"))).list();
        return states;
    }
}
