package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.FencedApplier;
import com.acme.payments.sweep.Outcome;
import com.acme.payments.order.OrderStore;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Checkouts;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * Lock order: reviving an abandoned refund the PSP made after all, from the sweep (under
 * its lease) and from a webhook at the same moment. Each path runs in its own thread and transaction through
 * the real proxied beans. The sweep's thread is held just before it asks for the order's lock, while it
 * holds the refund row; the webhook then runs until it waits for a lock. With one lock order (refund row,
 * then order) the webhook waits for the refund row and both finish; with the old order the webhook took
 * the order first and PostgreSQL aborts one of the two as a deadlock.
 */
class RevivalLockOrderIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RefundApplier applier;

    @Autowired
    FencedApplier fenced;

    @Autowired
    RefundStore refunds;

    @Autowired
    OrderStore orders;

    String paidOrder(String amount) {
        return Checkouts.paidOrder(new Shop(http()), psp, jdbc, amount);
    }

    String abandonedRefund(String orderRef, String amount) {
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String reference = http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", "lock-1")
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}")
                .json().path("referenceId").asString();
        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/refunds/" + reference + "/abandon", "{}").status())
                .isEqualTo(200);
        psp.resetAll();
        return reference;
    }

    int lockWaiters() {
        return jdbc.sql("""
                SELECT count(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'""").query(Integer.class).single();
    }

    @Test
    @DisplayName("an abandoned refund revived by the sweep and by its webhook at once: no deadlock, booked once")
    void revivalFromTheSweepAndTheWebhookAtOnceDoesNotDeadlock() throws Exception {
        String orderRef = paidOrder("20.00");
        String reference = abandonedRefund(orderRef, "8.00");
        Refund abandoned = refunds.findByReference(reference).orElseThrow();
        String rf = "rf-lock-" + orderRef;
        PspPayment made = new PspPayment(rf, reference, "REFUND", "COMPLETED", new BigDecimal("8.00"), "EUR", null,
                null, null, "pay-" + orderRef);

        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        Thread[] sweepThread = new Thread[1];
        MethodInterceptor holdSweepBeforeOrderLock = invocation -> {
            if (Thread.currentThread() == sweepThread[0] && invocation.getMethod().getName().equals("lockForRefund")) {
                paused.countDown();
                resume.await(30, TimeUnit.SECONDS);
            }
            return invocation.proceed();
        };
        Advised orderStore = (Advised) orders;
        orderStore.addAdvice(0, holdSweepBeforeOrderLock);
        try {
            CompletableFuture<Outcome> sweep = CompletableFuture.supplyAsync(() -> {
                sweepThread[0] = Thread.currentThread();
                return fenced.apply(refunds, abandoned.lease(), () -> {
                    applier.settle(abandoned, made);
                    return Outcome.RESOLVED;
                });
            }, runnable -> new Thread(runnable, "sweep-path").start());
            assertThat(paused.await(10, TimeUnit.SECONDS)).as("the sweep holds the refund row").isTrue();

            CompletableFuture<Response> webhook = CompletableFuture.supplyAsync(() -> new Shop(http())
                    .webhook(payment(rf, reference, "REFUND", "COMPLETED", "8.00", "EUR")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (lockWaiters() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(lockWaiters()).as("the webhook waits for a lock the sweep holds").isPositive();
            resume.countDown();

            assertThat(sweep.get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.RESOLVED);
            Response answer = webhook.get(30, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(answer.json().path("status").asString()).isIn("applied", "duplicate");
        } finally {
            resume.countDown();
            orderStore.removeAdvice(holdSweepBeforeOrderLock);
        }
        assertThat(jdbc.sql("SELECT state FROM psp_refund_attempt WHERE reference_id = :r").param("r", reference)
                .query(String.class).single()).isEqualTo("DONE");
        assertThat(jdbc.sql("SELECT refunded_amount FROM orders WHERE order_ref = :o").param("o", orderRef)
                .query(BigDecimal.class).single()).as("reserved again exactly once").isEqualByComparingTo("8.00");
    }
}
