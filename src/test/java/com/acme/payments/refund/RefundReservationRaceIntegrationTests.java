package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * Property-style: many concurrent refunds with distinct keys and random amounts on one order, some
 * refused by the PSP. Whatever the interleaving, refunded_amount never exceeds paid_amount and always
 * equals the DONE refunds plus the open reservations; every accepted key was POSTed exactly once.
 */
class RefundReservationRaceIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 7, 42, 1234, 99991 })
    void concurrentRefundsNeverReserveMoreThanWasPaid(long seed) throws Exception {
        Random random = new Random(seed);
        Shop shop = new Shop(http());
        var order = shop.createOrder("100.00", "EUR");
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("DEPOSIT")))
                .willReturn(created("pay-" + order.orderRef(), "COMPLETED", "100.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        // amounts ending in 7 cents are refused by the PSP (a confirmed 4xx); others complete after a jitter
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .atPriority(5).willReturn(okJson(envelope(payment("rf-" + seed, null, "REFUND", "COMPLETED", "1", "EUR")))
                        .withUniformRandomDelay(5, 60)));
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.amount", matching(".*7$"))).atPriority(1)
                .willReturn(aResponse().withStatus(400).withBody("{\"errorCode\":\"nope\"}")));

        int threads = 8;
        int perThread = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<Integer>>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<String> amounts = new ArrayList<>();
            for (int i = 0; i < perThread; i++) {
                amounts.add(new BigDecimal(100 + random.nextInt(1900)).movePointLeft(2).toPlainString());
            }
            int thread = t;
            results.add(pool.submit(() -> {
                start.await();
                List<Integer> statuses = new ArrayList<>();
                for (int i = 0; i < amounts.size(); i++) {
                    Response r = http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", "s" + seed + "-" + thread + "-" + i)
                            .post("/api/orders/" + order.orderRef() + "/refunds",
                                    "{\"amount\":\"" + amounts.get(i) + "\",\"currency\":\"EUR\"}");
                    statuses.add(r.status());
                }
                return statuses;
            }));
        }
        start.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<List<Integer>> f : results) {
            statuses.addAll(f.get());
        }
        pool.shutdown();

        assertThat(statuses).allMatch(s -> s == 201 || s == 422 || s == 409);
        var totals = jdbc.sql("""
                SELECT o.paid_amount, o.refunded_amount,
                       coalesce(sum(r.amount) FILTER (WHERE r.state = 'DONE'), 0) AS done,
                       coalesce(sum(r.amount) FILTER (WHERE r.state IN ('IN_FLIGHT', 'UNKNOWN')), 0) AS open,
                       count(r.id) AS attempts
                  FROM orders o LEFT JOIN psp_refund_attempt r ON r.order_id = o.id
                 WHERE o.order_ref = :ref GROUP BY o.paid_amount, o.refunded_amount""")
                .param("ref", order.orderRef()).query().singleRow();
        BigDecimal paid = (BigDecimal) totals.get("paid_amount");
        BigDecimal refunded = (BigDecimal) totals.get("refunded_amount");
        BigDecimal done = (BigDecimal) totals.get("done");
        BigDecimal open = (BigDecimal) totals.get("open");
        assertThat(refunded).isLessThanOrEqualTo(paid);
        assertThat(refunded).isEqualByComparingTo(done.add(open));
        assertThat(statuses).contains(201);
        int posts = psp.countRequestsMatching(postRequestedFor(urlEqualTo("/api/v1/payments"))
                .withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND"))).build()).getCount();
        assertThat((long) posts).as("one POST per accepted refund key").isEqualTo((Long) totals.get("attempts"));
    }
}
