package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.support.Http;
import com.acme.payments.support.PspFixtures;
import com.github.tomakehurst.wiremock.client.WireMock;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The Stripe bulkhead on the shipped pool (10 connections, 5 s): deliveries whose transactions are held
 * open (a slow database, here a hook inside the transaction) take at most the permits' worth of
 * connections, the rest queue in order and are answered 200 once a permit frees, the PSP webhook keeps
 * its connections meanwhile, and a delivery that cannot get a permit within the wait is answered 503
 * {@code database-unavailable} with {@code Retry-After}, holding no claim; a delivery waiting on the Stripe
 * API (a reversal's invoice look-up, delayed 4 s) holds no permit meanwhile. The wait is shortened to 4 s
 * so the expiry test stays short; everything else is the shipped configuration.
 */
@TestPropertySource(properties = "stripe.bulkhead.max-wait=4s")
class StripeBulkheadIntegrationTests extends StripeIntegrationTest {

    private static final int POOL = 10;

    @Autowired
    private StripeBulkhead bulkhead;

    @Autowired
    private MeterRegistry registry;

    private final CountDownLatch open = new CountDownLatch(1);
    private final AtomicInteger inside = new AtomicInteger();
    private final ExecutorService senders = Executors.newCachedThreadPool();

    @AfterEach
    void release() {
        open.countDown();
        senders.shutdownNow();
    }

    @Test
    void aBurstHeldInTheDatabaseTakesOnlyThePermitsAndTheRestQueueUntilServed() throws Exception {
        assertThat(bulkhead.permits()).as("half the shipped pool").isEqualTo(POOL / 2);
        int burst = POOL + 2; // more deliveries than connections: without the bound they exhaust the pool
        List<String> events = new ArrayList<>();
        List<CompletableFuture<Http.Response>> answers = new ArrayList<>();
        for (int i = 0; i < burst; i++) {
            String eventId = id("evt");
            events.add(eventId);
            hook.beforeWrites(eventId, attempt -> hold());
            String body = renewal(eventId, id("sub"), id("user"), 1, "conv_" + eventId);
            answers.add(CompletableFuture.supplyAsync(() -> deliver(body), senders));
        }
        awaitInside(bulkhead.permits());
        // the others arrive and queue (without the bound they take the rest of the pool and this never holds)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (inside.get() + waiting() < burst && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(inside.get()).as("deliveries inside a transaction at once").isEqualTo(bulkhead.permits());
        assertThat(waiting()).isEqualTo(burst - bulkhead.permits());

        // the PSP webhook still finds a connection at once: the pool's 5 s wait would answer it 503
        String psp = PspFixtures.payment("pay-bulkhead-" + System.nanoTime(), null, "DEPOSIT", "COMPLETED", "1.00",
                "EUR");
        long start = System.nanoTime();
        Http.Response pspAnswer = http().header("Signature", PspFixtures.hmacHex(psp)).post("/webhooks/psp", psp);
        assertThat(pspAnswer.status()).as("PSP webhook during the Stripe burst: %s", pspAnswer.body()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));

        open.countDown();
        for (CompletableFuture<Http.Response> answer : answers) {
            Http.Response r = answer.get(30, TimeUnit.SECONDS);
            assertThat(r.status()).as("queued delivery: %s", r.body()).isEqualTo(200);
        }
        for (String eventId : events) {
            assertThat(eventState(eventId)).isEqualTo("completed");
        }
        assertThat(registry.get("stripe.bulkhead.wait").timer().max(TimeUnit.MILLISECONDS)).isPositive();
    }

    @Test
    void aDeliveryWithoutAPermitWithinTheWaitIsAnswered503AndHoldsNoClaim() throws Exception {
        List<CompletableFuture<Http.Response>> holders = new ArrayList<>();
        for (int i = 0; i < bulkhead.permits(); i++) {
            String eventId = id("evt");
            hook.beforeWrites(eventId, attempt -> hold());
            String body = renewal(eventId, id("sub"), id("user"), 1, "conv_" + eventId);
            holders.add(CompletableFuture.supplyAsync(() -> deliver(body), senders));
        }
        awaitInside(bulkhead.permits());

        String late = id("evt");
        String body = renewal(late, id("sub"), id("user"), 1, "conv_" + late);
        long start = System.nanoTime();
        Http.Response refused = deliver(body);
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.problemSlug()).isEqualTo("database-unavailable");
        assertThat(refused.header("Retry-After")).isEqualTo("5");
        assertThat(waited).as("queued for the whole wait, not refused at once").isGreaterThanOrEqualTo(
                Duration.ofSeconds(4));
        assertThat(eventState(late)).as("no claim taken, so Stripe's retry is let in").isNull();

        open.countDown();
        for (CompletableFuture<Http.Response> holder : holders) {
            assertThat(holder.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
        assertThat(deliver(body).status()).as("Stripe's retry").isEqualTo(200);
        assertThat(eventState(late)).isEqualTo("completed");
    }

    @Test
    void aReversalWaitingOnTheStripeApiHoldsNoPermit() throws Exception {
        List<CompletableFuture<Http.Response>> reversals = new ArrayList<>();
        for (int i = 0; i < bulkhead.permits(); i++) {
            String paymentIntentId = id("pi");
            psp.stubFor(WireMock.get(WireMock.urlPathEqualTo("/v1/invoice_payments"))
                    .withQueryParam("payment[payment_intent]", WireMock.equalTo(paymentIntentId))
                    .willReturn(json(StripeFixtures.invoicePayments(id("in"), paymentIntentId, 2900))
                            .withFixedDelay(4_000)));
            String body = StripeFixtures.event(id("evt"), "charge.refunded",
                    StripeFixtures.charge(id("ch"), paymentIntentId, 2900, 2900));
            reversals.add(CompletableFuture.supplyAsync(() -> deliver(body), senders));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (psp.findAll(WireMock.getRequestedFor(WireMock.urlPathEqualTo("/v1/invoice_payments"))).size()
                < bulkhead.permits() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }

        // every permit's delivery is waiting on Stripe's answer: a renewal still gets a permit at once
        String eventId = id("evt");
        long start = System.nanoTime();
        Http.Response renewal = deliver(renewal(eventId, id("sub"), id("user"), 1, "conv_" + eventId));
        assertThat(renewal.status()).as(renewal.body()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("renewal beside the slow look-ups")
                .isLessThan(Duration.ofSeconds(3));
        for (CompletableFuture<Http.Response> reversal : reversals) {
            Http.Response r = reversal.get(30, TimeUnit.SECONDS);
            assertThat(r.status()).as("reversal: %s", r.body()).isEqualTo(200);
        }
    }

    private int waiting() {
        return (int) registry.get("stripe.bulkhead.waiting").gauge().value();
    }

    private void hold() {
        inside.incrementAndGet();
        try {
            if (!open.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the transaction go");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            inside.decrementAndGet();
        }
    }

    private void awaitInside(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (inside.get() < n && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(inside.get()).as("deliveries holding a transaction").isGreaterThanOrEqualTo(n);
    }
}
