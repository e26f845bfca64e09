package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.PAST_READ_TIMEOUT_MS;
import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.createCount;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

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

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.client.WireMock;

class CheckoutIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    CheckoutOrchestrator orchestrator;

    @Autowired
    AttemptStore attempts;

    @Autowired
    AttemptClaimApplier claims;

    Shop shop() {
        return new Shop(http());
    }

    @Test
    @DisplayName("double-click checkout creates exactly one PSP payment")
    void doubleClickCheckoutCreatesExactlyOnePspPayment() throws Exception {
        var order = shop().createOrder("10.01", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-dbl-" + order.orderRef(), "CHECKOUT", "10.01", "EUR")
                .withFixedDelay(400)));
        psp.stubFor(findCall().willReturn(nothingFound()));

        int clicks = 6;
        ExecutorService pool = Executors.newFixedThreadPool(clicks);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> answers = new ArrayList<>();
        for (int i = 0; i < clicks; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return shop().checkout(order.orderRef());
            }));
        }
        start.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<Response> answer : answers) {
            statuses.add(answer.get().status());
        }
        pool.shutdown();

        assertThat(createCount(psp)).isEqualTo(1);
        assertThat(statuses).contains(200).allMatch(s -> s == 200 || s == 409);
        assertThat(openAttempts(order.orderRef())).isEqualTo(1);
        // once the owner has stored the result every click replays it
        Response replay = shop().checkout(order.orderRef());
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.json().path("redirectUrl").asString()).endsWith("pay-dbl-" + order.orderRef());
        assertThat(createCount(psp)).isEqualTo(1);
    }

    @Test
    @DisplayName("timeout then empty reconcile leaves UNKNOWN; a later call resolves it with zero re-POSTs")
    void timeoutThenEmptyReconcileLeavesUnknownAndALaterCallResolves() {
        var order = shop().createOrder("25.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-late", "CHECKOUT", "25.00", "EUR").withFixedDelay(PAST_READ_TIMEOUT_MS)));
        psp.stubFor(findCall().willReturn(nothingFound()));

        Response first = shop().checkout(order.orderRef());
        assertThat(first.status()).isEqualTo(409);
        assertThat(first.problemSlug()).isEqualTo("payment-outcome-unknown");
        assertThat(first.header("Retry-After")).isNotBlank();
        assertThat(attemptStates(order.orderRef())).containsExactly("UNKNOWN");

        Response stillUnknown = shop().checkout(order.orderRef());
        assertThat(stillUnknown.status()).isEqualTo(409);
        assertThat(stillUnknown.problemSlug()).isEqualTo("payment-outcome-unknown");

        String reference = attemptReferences(order.orderRef()).get(0);
        psp.stubFor(findCall().willReturn(found(payment("pay-found-" + order.orderRef(), reference, "DEPOSIT",
                "CHECKOUT", "25.00", "EUR"))));
        Response resolved = shop().checkout(order.orderRef());
        assertThat(resolved.status()).isEqualTo(200);
        assertThat(resolved.json().path("attempt").path("referenceId").asString()).isEqualTo(reference);
        assertThat(resolved.json().path("attempt").path("state").asString()).isEqualTo("READY");
        assertThat(createCount(psp)).as("never re-POSTed").isEqualTo(1);
        assertThat(shop().order(order.orderRef()).json().path("status").asString()).isEqualTo("PROCESSING");
    }

    @Test
    @DisplayName("a confirmed 4xx frees the order for a new attempt with a new reference")
    void confirmed4xxFreesTheOrderForANewAttemptWithANewReference() {
        var order = shop().createOrder("5.00", "EUR");
        psp.stubFor(createCall().willReturn(status(400, "{\"errorCode\":\"invalid_amount\",\"errorMessage\":\"no\"}")));

        Response refused = shop().checkout(order.orderRef());
        assertThat(refused.status()).isEqualTo(502);
        assertThat(refused.problemSlug()).isEqualTo("psp-rejected");
        assertThat(refused.json().path("errorCode").asString()).isEqualTo("invalid_amount");
        assertThat(attemptStates(order.orderRef())).containsExactly("FAILED");

        psp.stubFor(createCall().willReturn(created("pay-second", "CHECKOUT", "5.00", "EUR")));
        Response second = shop().checkout(order.orderRef());
        assertThat(second.status()).isEqualTo(200);
        List<String> references = attemptReferences(order.orderRef());
        assertThat(references).hasSize(2).doesNotHaveDuplicates();
        assertThat(attemptStates(order.orderRef())).containsExactly("FAILED", "READY");
    }

    @Test
    @DisplayName("a declined payment answers 422 and the order can be paid with a new checkout")
    void declinedAnswers422AndFreesTheOrder() {
        var order = shop().createOrder("7.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-declined-" + order.orderRef(), "DECLINED", "7.00", "EUR")));
        Response declined = shop().checkout(order.orderRef());
        assertThat(declined.status()).isEqualTo(422);
        assertThat(declined.problemSlug()).isEqualTo("checkout-declined");
        assertThat(declined.json().path("errorCode").asString()).isEqualTo("card_declined");
        assertThat(shop().order(order.orderRef()).json().path("status").asString()).isEqualTo("PAYMENT_FAILED");

        psp.stubFor(createCall().willReturn(created("pay-retry-" + order.orderRef(), "CHECKOUT", "7.00", "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);
        assertThat(shop().order(order.orderRef()).json().path("status").asString()).isEqualTo("PROCESSING");
    }

    @Test
    @DisplayName("a PAID order is not payable: 409 order-not-payable")
    void paidOrderIsNotPayable() {
        var order = shop().createOrder("3.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-paid-" + order.orderRef(), "COMPLETED", "3.00", "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);
        assertThat(shop().order(order.orderRef()).json().path("status").asString()).isEqualTo("PAID");
        Response again = shop().checkout(order.orderRef());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.problemSlug()).isEqualTo("order-not-payable");
    }

    @Test
    @DisplayName("a non-owner arriving while the owner is mid-call reconciles and answers 409 checkout-in-progress")
    void nonOwnerWhileOwnerIsMidCallAnswersInProgress() {
        var order = shop().createOrder("4.00", "EUR");
        long orderId = orderId(order.orderRef());
        claims.claim(orderId, new java.math.BigDecimal("4.00"), "EUR", "https://shop.test/r", "chk_midcall_" + orderId);
        psp.stubFor(findCall().willReturn(nothingFound()));

        Response joined = shop().checkout(order.orderRef());
        assertThat(joined.status()).isEqualTo(409);
        assertThat(joined.problemSlug()).isEqualTo("checkout-in-progress");
        assertThat(joined.header("Retry-After")).isNotBlank();
        assertThat(createCount(psp)).isZero();
        psp.verify(1, WireMock.getRequestedFor(WireMock.urlPathEqualTo("/api/v1/payments"))
                .withQueryParam("referenceId.eq", WireMock.equalTo("chk_midcall_" + orderId)));
    }

    @Test
    @DisplayName("the customer's return polls the PSP and applies the current state")
    void returnPollsThePspAndApplies() {
        var order = shop().createOrder("12.50", "EUR");
        String paymentId = "pay-ret-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "12.50", "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);
        psp.stubFor(com.acme.payments.support.PspFixtures.getCall(paymentId).willReturn(WireMock.okJson(
                com.acme.payments.support.PspFixtures.envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED", "12.40", "EUR")))));

        Response returned = http().bearer(order.clientToken()).get("/api/orders/" + order.orderRef() + "/return");
        assertThat(returned.status()).isEqualTo(200);
        assertThat(returned.json().path("status").asString()).isEqualTo("PAID");
        assertThat(returned.json().path("paidAmount").asString()).as("booked from the PSP, not the request")
                .isEqualTo("12.40");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'order_paid' AND aggregate_id = :ref")
                .param("ref", order.orderRef()).query(Integer.class).single()).isEqualTo(1);
    }

    int openAttempts(String orderRef) {
        return jdbc.sql("""
                SELECT count(*) FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref AND a.state IN ('IN_FLIGHT','UNKNOWN','READY')""")
                .param("ref", orderRef).query(Integer.class).single();
    }

    List<String> attemptStates(String orderRef) {
        return jdbc.sql("""
                SELECT a.state FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref ORDER BY a.id""").param("ref", orderRef).query(String.class).list();
    }

    List<String> attemptReferences(String orderRef) {
        return jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref ORDER BY a.id""").param("ref", orderRef).query(String.class).list();
    }

    long orderId(String orderRef) {
        return jdbc.sql("SELECT id FROM orders WHERE order_ref = :ref").param("ref", orderRef).query(Long.class).single();
    }
}
