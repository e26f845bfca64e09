package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.status;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Checkouts;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

import tools.jackson.databind.JsonNode;

/**
 * A refund made in the PSP's back office (a REFUND payment of one of our payments under a referenceId that
 * is none of ours) is booked once as the order's refund with {@code origin: "external"}: its receipt
 * closed, counted once in refundedAmount, bounding later refunds, failing late through the same state
 * moves as ours, and an over-refund recorded as a discrepancy. Gateway webhooks on real PostgreSQL
 * through the real beans (the replay job: {@code ExternalRefundReplayIntegrationTests}).
 */
class ExternalRefundIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    javax.sql.DataSource dataSource;

    Shop shop() {
        return new Shop(http());
    }

    String paidOrder(String amount) {
        return Checkouts.paidOrder(shop(), psp, jdbc, amount);
    }

    static String backOfficeRefund(String id, String parent, String state, String amount) {
        String refund = payment(id, "back-office-" + id, "REFUND", state, amount, "EUR");
        return refund.substring(0, refund.length() - 1) + ",\"parentPaymentId\":\"" + parent + "\"}";
    }

    static String id() {
        return "bo-" + UUID.randomUUID();
    }

    Response refund(String orderRef, String key, String amount) {
        return http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", key).post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
    }

    JsonNode refunds(String orderRef) {
        return http().bearer(Shop.ADMIN_KEY).get("/api/orders/" + orderRef + "/refunds").json();
    }

    String refundedAmount(String orderRef) {
        return shop().order(orderRef).json().path("refundedAmount").asString();
    }

    List<String> openReceipts(String paymentId) {
        return jdbc.sql("SELECT state FROM psp_webhook_event WHERE payment_id = :p AND processed_at IS NULL")
                .param("p", paymentId).query(String.class).list();
    }

    long rows(String paymentId) {
        return jdbc.sql("SELECT count(*) FROM psp_refund_attempt WHERE psp_payment_id = :p").param("p", paymentId)
                .query(Long.class).single();
    }

    long outbox(String key) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE idempotency_key = :k").param("k", key)
                .query(Long.class).single();
    }

    JsonNode discrepancy(String paymentId, String kind) {
        for (JsonNode d : http().bearer(Shop.ADMIN_KEY).get("/api/admin/discrepancies").json()) {
            if (paymentId.equals(d.path("pspPaymentId").asString()) && kind.equals(d.path("kind").asString())) {
                return d;
            }
        }
        return null;
    }

    @Test
    @DisplayName("a back-office refund is booked once with origin external, its receipt closed, refundedAmount counting it once; a redelivery is a duplicate")
    void backOfficeRefundIsBookedOnce() {
        String orderRef = paidOrder("40.00");
        String bo = id();
        String completed = backOfficeRefund(bo, "pay-" + orderRef, "COMPLETED", "15.00");
        assertThat(shop().webhook(completed).json().path("status").asString()).isEqualTo("applied");
        assertThat(shop().webhook(completed).json().path("status").asString()).isEqualTo("duplicate");

        assertThat(rows(bo)).isEqualTo(1);
        assertThat(openReceipts(bo)).as("never left open for the replay job").isEmpty();
        assertThat(refundedAmount(orderRef)).isEqualTo("15.00");
        JsonNode view = refunds(orderRef).get(0);
        assertThat(view.path("origin").asString()).isEqualTo("external");
        assertThat(view.path("referenceId").asString()).isEqualTo(bo);
        assertThat(view.path("pspPaymentId").asString()).isEqualTo(bo);
        assertThat(view.path("refundKey").isNull()).isTrue();
        assertThat(view.path("requestedBy").isNull()).isTrue();
        assertThat(view.path("state").asString()).isEqualTo("DONE");
        assertThat(view.path("pspState").asString()).isEqualTo("COMPLETED");
        assertThat(view.path("amount").asString()).isEqualTo("15.00");
        Response lookup = http().bearer(Shop.ADMIN_KEY).get("/api/admin/refunds/" + bo);
        assertThat(lookup.status()).isEqualTo(200);
        assertThat(lookup.json().path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(lookup.json().path("origin").asString()).isEqualTo("external");
        assertThat(discrepancy(bo, "over_refund")).isNull();
    }

    @Test
    @DisplayName("COMPLETED before PENDING (out of order): one refund, counted once, its PSP state final")
    void outOfOrderReportsBookOnce() {
        String orderRef = paidOrder("40.00");
        String bo = id();
        assertThat(shop().webhook(backOfficeRefund(bo, "pay-" + orderRef, "COMPLETED", "10.00")).json().path("status")
                .asString()).isEqualTo("applied");
        assertThat(shop().webhook(backOfficeRefund(bo, "pay-" + orderRef, "PENDING", "10.00")).json().path("status")
                .asString()).isIn("duplicate", "ignored");
        assertThat(rows(bo)).isEqualTo(1);
        assertThat(openReceipts(bo)).isEmpty();
        assertThat(refundedAmount(orderRef)).isEqualTo("10.00");
        assertThat(refunds(orderRef).get(0).path("pspState").asString()).isEqualTo("COMPLETED");
    }

    @Test
    @DisplayName("a later API refund is bounded by a back-office refund: 422 refund-exceeds-remainder past it; our own refunds carry origin api")
    void laterApiRefundIsBoundedByIt() {
        String orderRef = paidOrder("40.00");
        assertThat(shop().webhook(backOfficeRefund(id(), "pay-" + orderRef, "COMPLETED", "25.00")).json().path("status")
                .asString()).isEqualTo("applied");
        Response tooMuch = refund(orderRef, "k-" + orderRef, "15.01");
        assertThat(tooMuch.status()).isEqualTo(422);
        assertThat(tooMuch.json().path("type").asString()).endsWith("refund-exceeds-remainder");

        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(okJson(envelope(payment("rf-" + orderRef, null, "REFUND", "COMPLETED", "15.00", "EUR")))));
        Response rest = refund(orderRef, "k2-" + orderRef, "15.00");
        assertThat(rest.status()).as(rest.body()).isEqualTo(201);
        assertThat(rest.json().path("origin").asString()).isEqualTo("api");
        assertThat(refundedAmount(orderRef)).isEqualTo("40.00");
        assertThat(refunds(orderRef).findValuesAsString("origin")).containsExactly("external", "api");
    }

    @Test
    @DisplayName("a back-office refund PENDING then DECLINED (twice): FAILED, released once, one refund_failed; first seen DECLINED books nothing")
    void lateFailureReleasesOnce() {
        String orderRef = paidOrder("40.00");
        String bo = id();
        shop().webhook(backOfficeRefund(bo, "pay-" + orderRef, "PENDING", "12.00"));
        assertThat(refundedAmount(orderRef)).isEqualTo("12.00");
        assertThat(shop().webhook(backOfficeRefund(bo, "pay-" + orderRef, "DECLINED", "12.00")).json().path("status")
                .asString()).isEqualTo("applied");
        assertThat(shop().webhook(backOfficeRefund(bo, "pay-" + orderRef, "CANCELLED", "12.00")).json().path("status")
                .asString()).isEqualTo("duplicate");
        assertThat(refundedAmount(orderRef)).as("released exactly once").isEqualTo("0.00");
        JsonNode view = refunds(orderRef).get(0);
        assertThat(view.path("state").asString()).isEqualTo("FAILED");
        assertThat(view.path("errorCode").asString()).isEqualTo("card_declined");
        assertThat(outbox(bo + ":refund_failed")).isEqualTo(1);

        String declined = id();
        assertThat(shop().webhook(backOfficeRefund(declined, "pay-" + orderRef, "DECLINED", "5.00")).json()
                .path("status").asString()).isEqualTo("applied");
        assertThat(rows(declined)).isEqualTo(1);
        assertThat(openReceipts(declined)).isEmpty();
        assertThat(refundedAmount(orderRef)).isEqualTo("0.00");
        assertThat(outbox(declined + ":refund_failed")).as("nothing was booked, nothing to reverse").isZero();
    }

    @Test
    @DisplayName("a back-office refund past what is left: booked (the money left), and an over_refund discrepancy of the excess")
    void overRefundIsADiscrepancy() {
        String orderRef = paidOrder("40.00");
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(okJson(envelope(payment("rf-" + orderRef, null, "REFUND", "COMPLETED", "30.00", "EUR")))));
        assertThat(refund(orderRef, "k-" + orderRef, "30.00").status()).isEqualTo(201);
        String bo = id();
        assertThat(shop().webhook(backOfficeRefund(bo, "pay-" + orderRef, "COMPLETED", "20.00")).json().path("status")
                .asString()).isEqualTo("applied");

        assertThat(refundedAmount(orderRef)).isEqualTo("50.00");
        JsonNode over = discrepancy(bo, "over_refund");
        assertThat(over).isNotNull();
        assertThat(over.path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(new BigDecimal(over.path("amount").asString())).isEqualByComparingTo("10.00");
        assertThat(outbox(bo + ":over_refund")).isEqualTo(1);
    }

    /** An order paid once, plus its abandoned attempt's hidden payment that completed: a second charge. */
    String secondCharge(String amount) {
        Shop shop = shop();
        var order = shop.createOrder(amount, "EUR");
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String hiddenRef = shop.checkout(order.orderRef()).json().path("referenceId").asString();
        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/attempts/" + hiddenRef + "/abandon", "{}").status())
                .isEqualTo(200);
        psp.resetAll();
        psp.stubFor(createCall().willReturn(created("pay-p-" + order.orderRef(), "COMPLETED", amount, "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        String hidden = "pay-h-" + order.orderRef();
        assertThat(shop.webhook(payment(hidden, hiddenRef, "DEPOSIT", "COMPLETED", amount, "EUR")).json().path("status")
                .asString()).isEqualTo("duplicate_charge");
        psp.resetAll();
        return hidden;
    }

    @Test
    @DisplayName("a back-office refund of a second charge is that charge's refund (the order's refundedAmount untouched); refunding the charge again twice is an over_refund")
    void backOfficeRefundOfASecondChargeIsTheChargesRefund() {
        String charge = secondCharge("20.00");
        String orderRef = jdbc.sql("""
                SELECT o.order_ref FROM duplicate_charge d JOIN orders o ON o.id = d.order_id WHERE d.psp_payment_id = :p
                """).param("p", charge).query(String.class).single();
        String bo = id();
        assertThat(shop().webhook(backOfficeRefund(bo, charge, "COMPLETED", "20.00")).json().path("status").asString())
                .isEqualTo("applied");
        assertThat(openReceipts(bo)).isEmpty();
        assertThat(refundedAmount(orderRef)).as("a second charge's refund is not the order's").isEqualTo("0.00");
        Response lookup = http().bearer(Shop.ADMIN_KEY).get("/api/admin/refunds/" + bo);
        assertThat(lookup.json().path("origin").asString()).isEqualTo("external");
        assertThat(lookup.json().path("orderRef").asString()).isEqualTo(orderRef);
        Response ours = http().bearer(Shop.ADMIN_KEY).post("/api/admin/duplicate-charges/" + charge + "/refund", "{}");
        assertThat(ours.status()).as("the charge's live refund is the Dashboard's: replayed, never sent").isEqualTo(200);
        assertThat(ours.json().path("referenceId").asString()).isEqualTo(bo);
        assertThat(psp.getAllServeEvents()).as("no PSP call").isEmpty();

        String twice = id();
        assertThat(shop().webhook(backOfficeRefund(twice, charge, "COMPLETED", "20.00")).json().path("status")
                .asString()).isEqualTo("ignored");
        assertThat(openReceipts(twice)).isEmpty();
        assertThat(rows(twice)).isZero();
        JsonNode over = discrepancy(twice, "over_refund");
        assertThat(over).isNotNull();
        assertThat(new BigDecimal(over.path("amount").asString())).isEqualByComparingTo("20.00");
    }

    @Test
    @DisplayName("two reports of one back-office refund at once (PENDING and COMPLETED, each on its own connection): one refund, counted once, no 500")
    void concurrentReportsBookOnce() throws Exception {
        String orderRef = paidOrder("40.00");
        String bo = id();
        List<String> bodies = List.of(backOfficeRefund(bo, "pay-" + orderRef, "PENDING", "9.00"),
                backOfficeRefund(bo, "pay-" + orderRef, "COMPLETED", "9.00"));
        var start = new java.util.concurrent.CountDownLatch(1);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<Response>> answers = bodies.stream().map(body -> pool.submit(() -> {
                start.await();
                return shop().webhook(body);
            })).toList();
            start.countDown();
            for (var answer : answers) {
                assertThat(answer.get().status()).as(answer.get().body()).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(rows(bo)).isEqualTo(1);
        assertThat(refundedAmount(orderRef)).isEqualTo("9.00");
        assertThat(openReceipts(bo)).isEmpty();
    }

    @Test
    @DisplayName("a report whose refund another transaction is booking waits for it, then moves that one row (held-lock: no second booking)")
    void reportWaitsForTheBookingInFlight() throws Exception {
        String orderRef = paidOrder("40.00");
        String bo = id();
        long orderId = jdbc.sql("SELECT id FROM orders WHERE order_ref = :r").param("r", orderRef).query(Long.class)
                .single();
        var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (java.sql.Connection held = dataSource.getConnection()) {
            held.setAutoCommit(false);
            try (var insert = held.prepareStatement("""
                    INSERT INTO psp_refund_attempt (order_id, reference_id, psp_payment_id, amount, currency, state,
                                                    psp_state, origin)
                    VALUES (?, ?, ?, 9.00, 'EUR', 'DONE', 'PENDING', 'external')""");
                    var book = held.prepareStatement(
                            "UPDATE orders SET refunded_amount = refunded_amount + 9.00 WHERE id = ?")) {
                insert.setLong(1, orderId);
                insert.setString(2, bo);
                insert.setString(3, bo);
                insert.executeUpdate();
                book.setLong(1, orderId);
                book.executeUpdate();
            }
            var answer = pool.submit(() -> shop().webhook(backOfficeRefund(bo, "pay-" + orderRef, "COMPLETED", "9.00")));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> jdbc.sql("""
                    SELECT count(*) FROM pg_stat_activity
                     WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO psp_refund_attempt%'
                    """).query(Long.class).single() > 0);
            held.commit();
            assertThat(answer.get().json().path("status").asString()).isEqualTo("applied");
        } finally {
            pool.shutdownNow();
        }
        assertThat(rows(bo)).isEqualTo(1);
        assertThat(refundedAmount(orderRef)).isEqualTo("9.00");
        assertThat(refunds(orderRef).get(0).path("pspState").asString()).isEqualTo("COMPLETED");
        assertThat(openReceipts(bo)).isEmpty();
    }
}
