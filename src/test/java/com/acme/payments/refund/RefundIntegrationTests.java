package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.PAST_READ_TIMEOUT_MS;
import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.client.MappingBuilder;

class RefundIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RefundClaimApplier claims;

    /** A PAID order of {@code amount} EUR paid by PSP payment {@code pay-<orderRef>}. */
    String paidOrder(String amount) {
        Shop shop = new Shop(http());
        var order = shop.createOrder(amount, "EUR");
        psp.stubFor(createCall().willReturn(created("pay-" + order.orderRef(), "COMPLETED", amount, "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        psp.resetAll();
        return order.orderRef();
    }

    Http admin() {
        return http().bearer(Shop.ADMIN_KEY);
    }

    Response refund(String orderRef, String key, String amount) {
        return admin().header("Idempotency-Key", key).post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
    }

    static MappingBuilder refundCreate() {
        return createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")));
    }

    static String refundPayment(String id, String reference, String state, String amount) {
        return payment(id, reference, "REFUND", state, amount, "EUR");
    }

    int refundPosts() {
        return psp.countRequestsMatching(postRequestedFor(urlEqualTo("/api/v1/payments"))
                .withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND"))).build()).getCount();
    }

    BigDecimal refunded(String orderRef) {
        return jdbc.sql("SELECT refunded_amount FROM orders WHERE order_ref = :ref").param("ref", orderRef)
                .query(BigDecimal.class).single();
    }

    String reference(String orderRef, String key) {
        return jdbc.sql("""
                SELECT r.reference_id FROM psp_refund_attempt r JOIN orders o ON o.id = r.order_id
                 WHERE o.order_ref = :ref AND r.refund_key = :key""").param("ref", orderRef).param("key", key)
                .query(String.class).single();
    }

    @Test
    @DisplayName("a refund is POSTed as a REFUND payment of the order's payment and answers 201, a replay 200")
    void refundIsCreatedOnceAndReplayed() {
        String orderRef = paidOrder("50.00");
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-1", null, "COMPLETED", "20.00")))));
        Response first = refund(orderRef, "key-1", "20.00");
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.json().path("state").asString()).isEqualTo("DONE");
        assertThat(first.json().path("pspPaymentId").asString()).isEqualTo("rf-1");
        Response replay = refund(orderRef, "key-1", "20.00");
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(refundPosts()).isEqualTo(1);
        psp.verify(postRequestedFor(urlEqualTo("/api/v1/payments"))
                .withRequestBody(matchingJsonPath("$.parentPaymentId", equalTo("pay-" + orderRef))));
        assertThat(refunded(orderRef)).isEqualByComparingTo("20.00");
        Response list = admin().get("/api/orders/" + orderRef + "/refunds");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().size()).isEqualTo(1);
        assertThat(new Shop(http()).order(orderRef).json().path("refundedAmount").asString()).isEqualTo("20.00");
    }

    @Test
    @DisplayName("refund timeout then retry pays out once and reserves once")
    void refundTimeoutThenRetryPaysOutOnceAndReservesOnce() {
        String orderRef = paidOrder("30.00");
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-t", null, "COMPLETED", "10.00")))
                .withFixedDelay(PAST_READ_TIMEOUT_MS)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response timedOut = refund(orderRef, "key-t", "10.00");
        assertThat(timedOut.status()).isEqualTo(409);
        assertThat(timedOut.problemSlug()).isEqualTo("refund-outcome-unknown");
        assertThat(timedOut.header("Retry-After")).isNotBlank();
        assertThat(refunded(orderRef)).as("reserved while unknown").isEqualByComparingTo("10.00");

        String reference = reference(orderRef, "key-t");
        psp.stubFor(findCall().willReturn(found(refundPayment("rf-t", reference, "COMPLETED", "10.00"))));
        Response retried = refund(orderRef, "key-t", "10.00");
        assertThat(retried.status()).isEqualTo(200);
        assertThat(retried.json().path("state").asString()).isEqualTo("DONE");
        assertThat(refundPosts()).as("paid out once").isEqualTo(1);
        assertThat(refunded(orderRef)).as("reserved once").isEqualByComparingTo("10.00");
    }

    @Test
    @DisplayName("two concurrent refunds with one key POST once")
    void twoConcurrentRefundsWithOneKeyPostOnce() throws Exception {
        String orderRef = paidOrder("40.00");
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-c", null, "COMPLETED", "15.00")))
                .withFixedDelay(600)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> answers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return refund(orderRef, "same-key", "15.00");
            }));
        }
        start.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<Response> answer : answers) {
            statuses.add(answer.get().status());
        }
        pool.shutdown();
        assertThat(refundPosts()).isEqualTo(1);
        assertThat(statuses).containsExactlyInAnyOrder(201, 409);
        assertThat(refunded(orderRef)).isEqualByComparingTo("15.00");
        assertThat(refund(orderRef, "same-key", "15.00").status()).isEqualTo(200);
    }

    @Test
    @DisplayName("a crash between an accepted refund POST and its settle is reconciled, not re-POSTed")
    void crashBetweenAcceptedPostAndSettleIsReconciled() {
        String orderRef = paidOrder("25.00");
        long orderId = jdbc.sql("SELECT id FROM orders WHERE order_ref = :ref").param("ref", orderRef)
                .query(Long.class).single();
        // the owner committed its claim and reservation, POSTed, the PSP accepted — then the instance died
        RefundClaimApplier.Claim claim = claims.claim(orderId, "crash-key", new BigDecimal("5.00"), "EUR", "rfd_crash_" + orderId, "admin", null);
        assertThat(claim.owner()).isTrue();
        psp.stubFor(findCall().willReturn(found(refundPayment("rf-crash", "rfd_crash_" + orderId, "COMPLETED", "5.00"))));

        Response retried = refund(orderRef, "crash-key", "5.00");

        assertThat(retried.status()).isEqualTo(200);
        assertThat(retried.json().path("state").asString()).isEqualTo("DONE");
        assertThat(retried.json().path("pspPaymentId").asString()).isEqualTo("rf-crash");
        assertThat(refundPosts()).isZero();
        assertThat(refunded(orderRef)).isEqualByComparingTo("5.00");
    }

    @Test
    @DisplayName("an UNKNOWN refund blocks a new refund on the same order with 409")
    void unknownRefundBlocksANewRefund() {
        String orderRef = paidOrder("60.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        assertThat(refund(orderRef, "first", "10.00").status()).isEqualTo(409);
        Response blocked = refund(orderRef, "second", "10.00");
        assertThat(blocked.status()).isEqualTo(409);
        assertThat(blocked.problemSlug()).isEqualTo("refund-blocked-by-unknown");
        assertThat(refundPosts()).isEqualTo(1);
        assertThat(refunded(orderRef)).isEqualByComparingTo("10.00");
    }

    @Test
    @DisplayName("a confirmed 4xx releases the reservation once and the key keeps answering FAILED")
    void confirmed4xxReleasesTheReservationOnce() {
        String orderRef = paidOrder("20.00");
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-ok", null, "COMPLETED", "10.00")))));
        assertThat(refund(orderRef, "k-ok", "10.00").status()).isEqualTo(201);
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(422)
                .withBody("{\"errorCode\":\"refund_not_allowed\"}")));
        Response refused = refund(orderRef, "k-4xx", "8.00");
        assertThat(refused.status()).isEqualTo(201);
        assertThat(refused.json().path("state").asString()).isEqualTo("FAILED");
        assertThat(refused.json().path("errorCode").asString()).isEqualTo("refund_not_allowed");
        assertThat(refunded(orderRef)).isEqualByComparingTo("10.00");

        Response replay = refund(orderRef, "k-4xx", "8.00");
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.json().path("state").asString()).isEqualTo("FAILED");
        // a late refusal webhook for the same refund must not release a second time
        String reference = reference(orderRef, "k-4xx");
        new Shop(http()).webhook(refundPayment("rf-4xx", reference, "DECLINED", "8.00"));
        assertThat(refunded(orderRef)).isEqualByComparingTo("10.00");
        assertThat(refundPosts()).isEqualTo(2);
    }

    @Test
    @DisplayName("a refund webhook settles an open refund and never touches the order's status")
    void refundWebhookSettlesTheRefund() {
        String orderRef = paidOrder("20.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(500)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        assertThat(refund(orderRef, "wh-key", "4.00").status()).isEqualTo(409);
        String reference = reference(orderRef, "wh-key");
        Response hook = new Shop(http()).webhook(refundPayment("rf-wh", reference, "DECLINED", "4.00"));
        assertThat(hook.json().path("status").asString()).isEqualTo("applied");
        assertThat(refunded(orderRef)).isEqualByComparingTo("0");
        assertThat(new Shop(http()).order(orderRef).json().path("status").asString()).isEqualTo("PAID");
        assertThat(refund(orderRef, "wh-key", "4.00").json().path("state").asString()).isEqualTo("FAILED");
    }

    @Test
    @DisplayName("refund answers: 401, 403, 404, 400 missing key, 422 over remainder, 422 key reused, 409 not refundable")
    void refundAnswers() {
        String orderRef = paidOrder("10.00");
        String body = "{\"amount\":\"1.00\",\"currency\":\"EUR\"}";
        assertThat(http().header("Idempotency-Key", "a").post("/api/orders/" + orderRef + "/refunds", body).status())
                .isEqualTo(401);
        assertThat(http().bearer(Shop.SHOP_KEY).header("Idempotency-Key", "a")
                .post("/api/orders/" + orderRef + "/refunds", body).status()).isEqualTo(403);
        assertThat(refund("no-such-order", "a", "1.00").status()).isEqualTo(404);
        assertThat(admin().post("/api/orders/no-such-order/refunds", body).status()).as("404 before 400").isEqualTo(404);
        Response missingKey = admin().post("/api/orders/" + orderRef + "/refunds", body);
        assertThat(missingKey.status()).isEqualTo(400);
        assertThat(missingKey.body()).contains("Idempotency-Key");
        assertThat(refund(orderRef, "bad", "-1").status()).isEqualTo(400);
        assertThat(refund(orderRef, "bad", "1.001").status()).isEqualTo(400);
        assertThat(admin().header("Idempotency-Key", "usd").post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"1.00\",\"currency\":\"USD\"}").status()).isEqualTo(400);

        Response tooMuch = refund(orderRef, "big", "10.01");
        assertThat(tooMuch.status()).isEqualTo(422);
        assertThat(tooMuch.problemSlug()).isEqualTo("refund-exceeds-remainder");
        assertThat(jdbc.sql("SELECT count(*) FROM psp_refund_attempt WHERE refund_key = 'big'").query(Integer.class)
                .single()).as("nothing kept of a refused refund").isZero();

        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-a", null, "COMPLETED", "3.00")))));
        assertThat(refund(orderRef, "k", "3.00").status()).isEqualTo(201);
        Response reused = refund(orderRef, "k", "4.00");
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.problemSlug()).isEqualTo("refund-key-reused");

        Shop shop = new Shop(http());
        var unpaid = shop.createOrder("5.00", "EUR");
        Response notPaid = refund(unpaid.orderRef(), "x", "1.00");
        assertThat(notPaid.status()).isEqualTo(409);
        assertThat(notPaid.problemSlug()).isEqualTo("order-not-refundable");
        assertThat(admin().get("/api/orders/no-such-order/refunds").status()).isEqualTo(404);
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef + "/refunds").status()).isEqualTo(403);
    }
}
