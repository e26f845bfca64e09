package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.stripe.StripePaymentEvents.charge;
import static com.acme.payments.psp.stripe.StripePaymentEvents.dispute;
import static com.acme.payments.psp.stripe.StripePaymentEvents.event;
import static com.acme.payments.psp.stripe.StripePaymentEvents.paymentIntent;
import static com.acme.payments.psp.stripe.StripePaymentEvents.refund;
import static com.acme.payments.psp.stripe.StripePaymentEvents.session;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.LogCapture;
import com.acme.payments.support.Shop;

import tools.jackson.databind.JsonNode;

/**
 * Stripe as the PSP, its webhooks: the events of our own payments arrive at the
 * one Stripe endpoint, through the same signature check and claim as billing's, and move attempts, orders
 * and refunds through the Gateway webhook's own path, once, delivered late, twice and out of order.
 * Checkout and refund creates go through the Stripe adapter to the WireMock stand-in of Stripe's API: an
 * open session {@code cs_…} per checkout, a pending refund {@code re_…} per refund.
 */
@TestPropertySource(properties = "payments.psp.provider=stripe")
class StripePaymentWebhookIntegrationTests extends StripeIntegrationTest {

    private static final String RECEIVED = "{\"received\":true}";
    private static final String DUPLICATE = "{\"received\":true,\"duplicate\":true}";

    Shop shop() {
        return new Shop(http());
    }

    /** An order checked out at Stripe: its attempt READY with the session id, the order PROCESSING. */
    record CheckedOut(String orderRef, String attempt, String sessionId, String paymentIntentId) {
    }

    CheckedOut checkedOut(String amount) {
        String orderRef = shop().createOrder(amount, "EUR").orderRef();
        return checkout(orderRef);
    }

    CheckedOut checkout(String orderRef) {
        long minor = new BigDecimal(order(orderRef).path("amount").asString()).movePointRight(2).longValueExact();
        String sessionId = "cs_test_" + UUID.randomUUID().toString().replace("-", "");
        psp.stubFor(post(urlPathEqualTo("/v1/checkout/sessions")).willReturn(okJson(
                session(sessionId, null, "ref", orderRef, "open", "unpaid", minor))));
        Response answer = shop().checkout(orderRef);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        var attempt = jdbc.sql("""
                SELECT a.reference_id, a.psp_payment_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref ORDER BY a.id DESC LIMIT 1
                """).param("ref", orderRef).query((rs, n) -> List.of(rs.getString(1), rs.getString(2))).single();
        return new CheckedOut(orderRef, attempt.get(0), attempt.get(1), id("pi"));
    }

    JsonNode order(String orderRef) {
        return shop().order(orderRef).json();
    }

    String status(String orderRef) {
        return order(orderRef).path("status").asString();
    }

    long outboxRows(String kind, String aggregateId) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE kind = :k AND aggregate_id = :a").param("k", kind)
                .param("a", aggregateId).query(Long.class).single();
    }

    String attemptState(String attempt) {
        return jdbc.sql("SELECT state FROM psp_attempt WHERE reference_id = :r").param("r", attempt)
                .query(String.class).single();
    }

    String attemptPayment(String attempt) {
        return jdbc.sql("SELECT psp_payment_id FROM psp_attempt WHERE reference_id = :r").param("r", attempt)
                .query(String.class).single();
    }

    static final String SECOND_PAYMENT = "second payment for one attempt";

    long billingRows(String paymentIntentId) {
        return jdbc.sql("""
                SELECT (SELECT count(*) FROM billing_purchase WHERE payment_intent_id = :pi)
                     + (SELECT count(*) FROM billing_pending_reversal WHERE payment_intent_id = :pi)
                """).param("pi", paymentIntentId).query(Long.class).single();
    }

    static String paid(CheckedOut c, long minor) {
        return session(c.sessionId(), c.paymentIntentId(), c.attempt(), c.orderRef(), "complete", "paid", minor);
    }

    static String intent(CheckedOut c, String status, long minor) {
        return paymentIntent(c.paymentIntentId(), c.attempt(), c.orderRef(), status, minor, "automatic_async");
    }

    /** Our own charge's reversal is routed before billing's resolver could ask Stripe for its invoice. */
    void noReversalLookUp() {
        psp.verify(0, getRequestedFor(urlPathEqualTo("/v1/invoice_payments")));
    }

    void received(Response answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo(RECEIVED);
    }

    @Test
    @DisplayName("a paid checkout.session.completed pays the order once, its pspPaymentId the PaymentIntent's; the redelivery is a duplicate")
    void paidSessionPaysTheOrderOnce() {
        CheckedOut c = checkedOut("12.50");
        assertThat(order(c.orderRef()).path("pspPaymentId").asString()).startsWith("cs_");
        String body = event(id("evt"), "checkout.session.completed", paid(c, 1250));

        received(deliver(body));
        assertThat(deliver(body).body()).isEqualTo(DUPLICATE);

        JsonNode order = order(c.orderRef());
        assertThat(order.path("status").asString()).isEqualTo("PAID");
        assertThat(order.path("paidAmount").asString()).isEqualTo("12.50");
        assertThat(order.path("pspPaymentId").asString()).isEqualTo(c.paymentIntentId());
        assertThat(outboxRows("order_paid", c.orderRef())).isEqualTo(1);
        assertThat(billingRows(c.paymentIntentId())).as("billing never saw it").isZero();
    }

    @Test
    @DisplayName("payment_intent.succeeded before the session, then the session twice: paid once, no duplicate charge")
    void paymentIntentSucceededIsTheSameTruthInAnyOrder() {
        CheckedOut c = checkedOut("20.00");
        received(deliver(event(id("evt"), "payment_intent.succeeded", intent(c, "succeeded", 2000))));
        assertThat(status(c.orderRef())).isEqualTo("PAID");
        String session = event(id("evt"), "checkout.session.completed", paid(c, 2000));
        received(deliver(session));
        deliver(session);

        assertThat(order(c.orderRef()).path("pspPaymentId").asString()).isEqualTo(c.paymentIntentId());
        assertThat(outboxRows("order_paid", c.orderRef())).isEqualTo(1);
        assertThat(outboxRows("duplicate_charge", c.orderRef())).isZero();
    }

    @Test
    @DisplayName("checkout.session.completed moves the attempt from the session id to the PaymentIntent's, once; no second-payment warning")
    void sessionCompletedMovesTheAttemptToThePaymentIntent() {
        CheckedOut c = checkedOut("11.00");
        assertThat(attemptPayment(c.attempt())).isEqualTo(c.sessionId());
        try (LogCapture logs = new LogCapture("com.acme.payments.checkout")) {
            received(deliver(event(id("evt"), "checkout.session.completed", paid(c, 1100))));
            received(deliver(event(id("evt"), "payment_intent.succeeded", intent(c, "succeeded", 1100))));
            assertThat(logs.any(SECOND_PAYMENT)).isFalse();
        }
        assertThat(attemptPayment(c.attempt())).isEqualTo(c.paymentIntentId());
        assertThat(outboxRows("order_paid", c.orderRef())).isEqualTo(1);
    }

    @Test
    @DisplayName("payment_intent.succeeded, then the session (completed twice): the attempt names the PaymentIntent, paid once, no warning")
    void paymentIntentFirstThenTheSessionNamesThePaymentIntent() {
        CheckedOut c = checkedOut("13.00");
        try (LogCapture logs = new LogCapture("com.acme.payments.checkout")) {
            received(deliver(event(id("evt"), "payment_intent.succeeded", intent(c, "succeeded", 1300))));
            assertThat(attemptPayment(c.attempt())).as("the reference is enough").isEqualTo(c.paymentIntentId());
            received(deliver(event(id("evt"), "checkout.session.completed", paid(c, 1300))));
            received(deliver(event(id("evt"), "checkout.session.completed", paid(c, 1300))));
            assertThat(logs.any(SECOND_PAYMENT)).isFalse();
        }
        assertThat(attemptPayment(c.attempt())).isEqualTo(c.paymentIntentId());
        assertThat(status(c.orderRef())).isEqualTo("PAID");
        assertThat(outboxRows("order_paid", c.orderRef())).isEqualTo(1);
        assertThat(outboxRows("duplicate_charge", c.orderRef())).isZero();
    }

    @Test
    @DisplayName("a void of a PaymentIntent authorized by its own event, then payment_intent.canceled: no second-payment warning")
    void voidOfAnAuthorizedPaymentIntentIsNoSecondPayment() {
        CheckedOut c = checkedOut("45.00");
        String capturable = paymentIntent(c.paymentIntentId(), c.attempt(), c.orderRef(), "requires_capture", 4500,
                "manual");
        String canceled = paymentIntent(c.paymentIntentId(), c.attempt(), c.orderRef(), "canceled", 4500, "manual");
        try (LogCapture logs = new LogCapture("com.acme.payments.checkout")) {
            received(deliver(event(id("evt"), "payment_intent.amount_capturable_updated", capturable)));
            assertThat(status(c.orderRef())).isEqualTo("AUTHORIZED");
            psp.stubFor(post(urlPathEqualTo("/v1/payment_intents/" + c.paymentIntentId() + "/cancel"))
                    .willReturn(okJson(canceled)));
            Response voided = http().bearer(Shop.ADMIN_KEY).post("/api/orders/" + c.orderRef() + "/void", (String) null);
            assertThat(voided.status()).as(voided.body()).isLessThan(300);
            received(deliver(event(id("evt"), "payment_intent.canceled", canceled)));
            // the session's own events arriving after it all
            received(deliver(event(id("evt"), "checkout.session.completed", session(c.sessionId(),
                    c.paymentIntentId(), c.attempt(), c.orderRef(), "complete", "unpaid", 4500))));
            assertThat(logs.any(SECOND_PAYMENT)).isFalse();
        }
        assertThat(attemptPayment(c.attempt())).isEqualTo(c.paymentIntentId());
        assertThat(attemptState(c.attempt())).isEqualTo("FAILED");
        assertThat(status(c.orderRef())).isNotIn("AUTHORIZED", "PAID");
    }

    @Test
    @DisplayName("an unpaid session changes nothing until async_payment_succeeded pays it")
    void unpaidSessionWaitsForTheAsyncPayment() {
        CheckedOut c = checkedOut("30.00");
        String unpaid = session(c.sessionId(), c.paymentIntentId(), c.attempt(), c.orderRef(), "complete", "unpaid", 3000);
        received(deliver(event(id("evt"), "checkout.session.completed", unpaid)));
        assertThat(status(c.orderRef())).isEqualTo("PROCESSING");
        assertThat(outboxRows("order_paid", c.orderRef())).isZero();

        String succeeded = event(id("evt"), "checkout.session.async_payment_succeeded", paid(c, 3000));
        received(deliver(succeeded));
        deliver(succeeded);
        assertThat(status(c.orderRef())).isEqualTo("PAID");
        assertThat(outboxRows("order_paid", c.orderRef())).isEqualTo(1);
    }

    @Test
    @DisplayName("async_payment_failed declines the attempt: the order PAYMENT_FAILED, payable again")
    void asyncPaymentFailedDeclines() {
        CheckedOut c = checkedOut("30.00");
        String unpaid = session(c.sessionId(), c.paymentIntentId(), c.attempt(), c.orderRef(), "complete", "unpaid", 3000);
        received(deliver(event(id("evt"), "checkout.session.async_payment_failed", unpaid)));
        assertThat(status(c.orderRef())).isEqualTo("PAYMENT_FAILED");
        assertThat(attemptState(c.attempt())).isEqualTo("FAILED");
        // a late completed-unpaid of the same session moves nothing back
        received(deliver(event(id("evt"), "checkout.session.completed", unpaid)));
        assertThat(status(c.orderRef())).isEqualTo("PAYMENT_FAILED");
    }

    @Test
    @DisplayName("checkout.session.expired cancels: PAYMENT_FAILED and a new checkout is a new session")
    void expiredSessionCancelsAndTheOrderIsPayableAgain() {
        CheckedOut c = checkedOut("15.00");
        String expired = session(c.sessionId(), null, c.attempt(), c.orderRef(), "expired", "unpaid", 1500);
        String body = event(id("evt"), "checkout.session.expired", expired);
        received(deliver(body));
        assertThat(deliver(body).body()).isEqualTo(DUPLICATE);
        assertThat(status(c.orderRef())).isEqualTo("PAYMENT_FAILED");
        assertThat(attemptState(c.attempt())).isEqualTo("FAILED");

        CheckedOut again = checkout(c.orderRef());
        assertThat(again.attempt()).isNotEqualTo(c.attempt());
        assertThat(again.sessionId()).isNotEqualTo(c.sessionId());
        assertThat(status(c.orderRef())).isEqualTo("PROCESSING");
    }

    @Test
    @DisplayName("payment_intent.canceled cancels the attempt; payment_intent.payment_failed alone changes nothing")
    void canceledCancelsAndPaymentFailedAloneDoesNothing() {
        CheckedOut c = checkedOut("18.00");
        received(deliver(event(id("evt"), "payment_intent.payment_failed", intent(c, "requires_payment_method", 1800))));
        assertThat(status(c.orderRef())).isEqualTo("PROCESSING");
        assertThat(attemptState(c.attempt())).isEqualTo("READY");

        received(deliver(event(id("evt"), "payment_intent.canceled", intent(c, "canceled", 1800))));
        assertThat(status(c.orderRef())).isEqualTo("PAYMENT_FAILED");
        assertThat(attemptState(c.attempt())).isEqualTo("FAILED");
    }

    @Test
    @DisplayName("manual capture: amount_capturable_updated authorizes; the unpaid session arriving after never downgrades it")
    void capturableAuthorizes() {
        CheckedOut c = checkedOut("40.00");
        String capturable = paymentIntent(c.paymentIntentId(), c.attempt(), c.orderRef(), "requires_capture", 4000,
                "manual");
        received(deliver(event(id("evt"), "payment_intent.amount_capturable_updated", capturable)));
        String unpaid = session(c.sessionId(), c.paymentIntentId(), c.attempt(), c.orderRef(), "complete", "unpaid", 4000);
        received(deliver(event(id("evt"), "checkout.session.completed", unpaid)));

        JsonNode order = order(c.orderRef());
        assertThat(order.path("status").asString()).isEqualTo("AUTHORIZED");
        assertThat(order.path("pspPaymentId").asString()).isEqualTo(c.paymentIntentId());
    }

    @Test
    @DisplayName("a second session of the same order paid is a duplicate_charge, once")
    void secondSessionPaidIsADuplicateCharge() {
        CheckedOut first = checkedOut("25.00");
        String expired = session(first.sessionId(), null, first.attempt(), first.orderRef(), "expired", "unpaid", 2500);
        received(deliver(event(id("evt"), "checkout.session.expired", expired)));
        CheckedOut second = checkout(first.orderRef());
        received(deliver(event(id("evt"), "checkout.session.completed", paid(second, 2500))));
        assertThat(status(first.orderRef())).isEqualTo("PAID");

        // the first session was paid after all (it was being paid when it expired here): money moved twice
        String late = event(id("evt"), "payment_intent.succeeded", intent(first, "succeeded", 2500));
        received(deliver(late));
        received(deliver(event(id("evt"), "checkout.session.completed", paid(first, 2500))));

        assertThat(outboxRows("duplicate_charge", first.orderRef())).isEqualTo(1);
        JsonNode order = order(first.orderRef());
        assertThat(order.path("status").asString()).isEqualTo("PAID");
        assertThat(order.path("pspPaymentId").asString()).isEqualTo(second.paymentIntentId());
    }

    @Test
    @DisplayName("a dispute of the second charge (the abandoned session's PaymentIntent) is ours too: dispute_opened names the order")
    void disputeOfASecondChargeNamesItsOrder() {
        CheckedOut first = checkedOut("25.00");
        received(deliver(event(id("evt"), "checkout.session.expired",
                session(first.sessionId(), null, first.attempt(), first.orderRef(), "expired", "unpaid", 2500))));
        CheckedOut second = checkout(first.orderRef());
        received(deliver(event(id("evt"), "checkout.session.completed", paid(second, 2500))));
        received(deliver(event(id("evt"), "checkout.session.completed", paid(first, 2500))));
        assertThat(outboxRows("duplicate_charge", first.orderRef())).isEqualTo(1);

        String eventId = id("evt");
        received(deliver(event(eventId, "charge.dispute.created",
                dispute(id("dp"), first.paymentIntentId(), 2500, "duplicate"))));
        assertThat(jdbc.sql("SELECT payload->>'orderRef' FROM outbox WHERE idempotency_key = :k")
                .param("k", eventId + ":dispute_opened").query(String.class).single()).isEqualTo(first.orderRef());
        assertThat(billingRows(first.paymentIntentId())).isZero();
    }

    @Test
    @DisplayName("session completed and payment_intent.succeeded delivered together, each twice: paid once")
    void concurrentDeliveriesOfOneTruthPayOnce() throws Exception {
        CheckedOut c = checkedOut("22.00");
        List<String> bodies = List.of(event(id("evt"), "checkout.session.completed", paid(c, 2200)),
                event(id("evt"), "payment_intent.succeeded", intent(c, "succeeded", 2200)));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Response>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String body = bodies.get(i % 2);
            answers.add(pool.submit(() -> {
                start.await();
                return deliver(body);
            }));
        }
        start.countDown();
        for (java.util.concurrent.Future<Response> answer : answers) {
            // a twin still processing is a 503 Stripe retries; nothing else
            assertThat(answer.get().status()).isIn(200, 503);
        }
        pool.shutdown();
        bodies.forEach(body -> assertThat(deliver(body).status()).isEqualTo(200));

        assertThat(status(c.orderRef())).isEqualTo("PAID");
        assertThat(outboxRows("order_paid", c.orderRef())).isEqualTo(1);
        assertThat(outboxRows("duplicate_charge", c.orderRef())).isZero();
    }

    @Test
    @DisplayName("a paid session without amount_total is a payload fault: answered, nothing booked, its receipt kept open for the replay")
    void aValueThatCannotBeBookedKeepsTheReceipt() {
        CheckedOut c = checkedOut("10.00");
        String noAmount = paid(c, 1000).replace("\"amount_total\": 1000,", "");
        received(deliver(event(id("evt"), "checkout.session.completed", noAmount)));

        assertThat(status(c.orderRef())).isEqualTo("PROCESSING");
        assertThat(jdbc.sql("""
                SELECT fault FROM psp_webhook_event WHERE payment_id = :p AND state = 'COMPLETED' AND processed_at IS NULL
                """).param("p", c.paymentIntentId()).query(String.class).single()).isEqualTo("missing_amount");
    }

    /** A PAID order with a refund of {@code amount} created at Stripe (pending there, DONE here). */
    record Refunded(CheckedOut order, String refundKey, String referenceId, String refundId) {
    }

    Refunded paidAndRefunded(String paid, long paidMinor, String refund) {
        CheckedOut c = checkedOut(paid);
        received(deliver(event(id("evt"), "checkout.session.completed", paid(c, paidMinor))));
        String key = "rk-" + UUID.randomUUID();
        long minor = new BigDecimal(refund).movePointRight(2).longValueExact();
        psp.stubFor(post(urlPathEqualTo("/v1/refunds")).willReturn(okJson(
                refund(id("re"), c.paymentIntentId(), "pending", minor, key, "ref", null))));
        Response created = http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", key)
                .post("/api/orders/" + c.orderRef() + "/refunds", "{\"amount\":\"" + refund + "\",\"currency\":\"EUR\"}");
        assertThat(created.status()).as(created.body()).isIn(200, 201, 202);
        assertThat(created.json().path("state").asString()).isEqualTo("DONE");
        return new Refunded(c, key, created.json().path("referenceId").asString(),
                created.json().path("pspPaymentId").asString());
    }

    JsonNode refundView(Refunded r) {
        return http().bearer(Shop.ADMIN_KEY).get("/api/orders/" + r.order().orderRef() + "/refunds").json().get(0);
    }

    @Test
    @DisplayName("refund.updated failed then refund.failed (and both again): FAILED, the amount released once, one refund_failed")
    void oneRefundFailureAsTwoEventsReleasesOnce() {
        Refunded r = paidAndRefunded("50.00", 5000, "20.00");
        assertThat(order(r.order().orderRef()).path("refundedAmount").asString()).isEqualTo("20.00");
        String failed = refund(r.refundId(), r.order().paymentIntentId(), "failed", 2000, r.refundKey(),
                r.referenceId(), "expired_or_canceled_card");
        String updated = event(id("evt"), "refund.updated", failed);
        String failedEvent = event(id("evt"), "refund.failed", failed);

        received(deliver(updated));
        received(deliver(failedEvent));
        deliver(updated);
        deliver(failedEvent);

        JsonNode view = refundView(r);
        assertThat(view.path("state").asString()).isEqualTo("FAILED");
        assertThat(order(r.order().orderRef()).path("refundedAmount").asString()).isEqualTo("0.00");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE idempotency_key = :k")
                .param("k", r.refundId() + ":refund_failed").query(Long.class).single()).isEqualTo(1);
    }

    @Test
    @DisplayName("refund.failed first, then refund.updated: the same single release")
    void refundFailureInTheOtherOrderReleasesOnce() {
        Refunded r = paidAndRefunded("50.00", 5000, "10.00");
        String failed = refund(r.refundId(), r.order().paymentIntentId(), "failed", 1000, r.refundKey(),
                r.referenceId(), "lost_or_stolen_card");
        received(deliver(event(id("evt"), "refund.failed", failed)));
        received(deliver(event(id("evt"), "refund.updated", failed)));
        assertThat(refundView(r).path("state").asString()).isEqualTo("FAILED");
        assertThat(order(r.order().orderRef()).path("refundedAmount").asString()).isEqualTo("0.00");
        assertThat(outboxRows("refund_failed", r.order().orderRef())).isEqualTo(1);
    }

    @Test
    @DisplayName("refund.updated succeeded records Stripe's truth; charge.refunded about our PaymentIntent is acknowledged and changes nothing")
    void refundSucceededAndChargeRefundedIsAcknowledged() {
        Refunded r = paidAndRefunded("50.00", 5000, "20.00");
        String succeeded = refund(r.refundId(), r.order().paymentIntentId(), "succeeded", 2000, r.refundKey(),
                r.referenceId(), null);
        received(deliver(event(id("evt"), "refund.created", refund(r.refundId(), r.order().paymentIntentId(),
                "pending", 2000, r.refundKey(), r.referenceId(), null))));
        received(deliver(event(id("evt"), "refund.updated", succeeded)));
        received(deliver(event(id("evt"), "charge.refunded", charge(r.order().paymentIntentId(), 5000, 2000))));

        JsonNode view = refundView(r);
        assertThat(view.path("state").asString()).isEqualTo("DONE");
        assertThat(view.path("pspState").asString()).isEqualTo("COMPLETED");
        assertThat(order(r.order().orderRef()).path("refundedAmount").asString()).isEqualTo("20.00");
        assertThat(billingRows(r.order().paymentIntentId())).as("no billing reversal kept").isZero();
        noReversalLookUp();
    }

    @Test
    @DisplayName("charge.dispute.created for our PaymentIntent: one dispute_opened with billing's body and key plus orderRef")
    void disputeOpensOnce() {
        CheckedOut c = checkedOut("60.00");
        received(deliver(event(id("evt"), "checkout.session.completed", paid(c, 6000))));
        String eventId = id("evt");
        String body = event(eventId, "charge.dispute.created", dispute(id("dp"), c.paymentIntentId(), 6000, "fraudulent"));
        received(deliver(body));
        assertThat(deliver(body).body()).isEqualTo(DUPLICATE);

        assertThat(outboxKeys(eventId)).containsExactly(eventId + ":dispute_opened");
        JsonNode payload = tools.jackson.databind.json.JsonMapper.builder().build().readTree(jdbc.sql(
                "SELECT payload::text FROM outbox WHERE idempotency_key = :k").param("k", eventId + ":dispute_opened")
                .query(String.class).single());
        assertThat(payload.path("kind").asString()).isEqualTo("dispute_opened");
        assertThat(payload.path("orderRef").asString()).isEqualTo(c.orderRef());
        assertThat(payload.path("chargeId").asString()).isEqualTo("ch_" + c.paymentIntentId().substring(3));
        assertThat(payload.path("amount").asString()).isEqualTo("60.00");
        assertThat(payload.path("currency").asString()).isEqualTo("EUR");
        assertThat(payload.path("reason").asString()).isEqualTo("fraudulent");
        assertThat(billingRows(c.paymentIntentId())).isZero();
        assertThat(status(c.orderRef())).isEqualTo("PAID");
        noReversalLookUp();
    }

    @Test
    @DisplayName("billing's events still go to billing on the same endpoint, and someone else's PaymentIntent is ignored")
    void billingEventsStillGoToBilling() {
        String user = "user-" + UUID.randomUUID();
        String purchase = id("pi");
        String session = StripeFixtures.session(id("cs"), "payment", "paid", user, null, purchase, 1900,
                "\"productId\": \"prod_credits_pack\"");
        jdbc.sql("INSERT INTO billing_user (user_id) VALUES (:u) ON CONFLICT DO NOTHING").param("u", user).update();
        received(deliver(event(id("evt"), "checkout.session.completed", session)));
        assertThat(jdbc.sql("SELECT count(*) FROM billing_purchase WHERE payment_intent_id = :pi").param("pi", purchase)
                .query(Long.class).single()).isEqualTo(1);

        String foreign = paymentIntent(id("pi"), "not-an-attempt-of-ours", "x", "succeeded", 100, "automatic_async");
        received(deliver(event(id("evt"), "payment_intent.succeeded", foreign)));
    }
}
