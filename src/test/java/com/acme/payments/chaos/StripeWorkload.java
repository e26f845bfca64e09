package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.acme.payments.chaos.ServiceClient.Answer;
import com.acme.payments.stripe.StripeFixtures;

/**
 * Stripe as a sender: per subscriber a paid subscription checkout and one to four paid cycle invoices
 * in the current API's shape, and often a full refund of one cycle's charge and a dispute of another's
 * (charges without {@code invoice}, linked through the {@link StripeApiStandIn}'s
 * {@code invoice_payments}), all sent in shuffled order — so reversals arrive before and after their
 * payment — often redelivered in parallel to another instance, each retried (as Stripe does) until
 * some instance answers 2xx. Some events first get a {@code processing} claim of a "killed worker"
 * written straight into the idempotency store, so the service must wait out the claim expiry and take
 * it over. Before the faults start, a burst of distinct events is sent at once across the instances and
 * the answers to their first delivery are kept. What was acknowledged is what the invariants expect.
 */
final class StripeWorkload {

    /** An event Stripe considers delivered (a 2xx came back). */
    record Acked(String eventId, String type, String userId, String subscriptionId, Long periodStart) {
    }

    /** An acknowledged full refund or dispute of one cycle invoice (2900, the period's 500 credits). */
    record Reversed(String eventId, String kind, String userId, String invoiceId) {
    }

    /** The answer to one burst event's first delivery ({@code 200}, or status and problem type), and whether
     * the request overlapped a PostgreSQL outage the run injected. */
    record BurstAnswer(String answer, boolean duringOutage) {
    }

    /** Whether a request between two {@link System#nanoTime} readings overlapped an injected outage. */
    interface Outages {
        boolean during(long fromNanos, long toNanos);
    }

    static final int BURST_CONCURRENCY = 32;

    private final ServiceClient client;
    private final long seed;
    private final Tally tally;
    private final Tally faults;
    private final AtomicBoolean creating = new AtomicBoolean(true);
    private final AtomicInteger subscriberNumber = new AtomicInteger();
    private final List<Acked> acked = new CopyOnWriteArrayList<>();
    private final List<String> unacknowledged = new CopyOnWriteArrayList<>();
    private final List<Reversed> reversed = new CopyOnWriteArrayList<>();
    private final List<BurstAnswer> burstFirstAnswers = new CopyOnWriteArrayList<>();
    private final Outages outages;
    private final List<Thread> threads = new ArrayList<>();
    private final ExecutorService redeliveries = Loops.daemonPool("chaos-stripe-redelivery");
    private volatile long giveUpAt = Long.MAX_VALUE;

    StripeWorkload(ServiceClient client, long seed, Tally tally, Tally faults, Outages outages) {
        this.client = client;
        this.outages = outages;
        this.seed = seed;
        this.tally = tally;
        this.faults = faults;
    }

    List<Acked> acked() {
        return acked;
    }

    List<String> unacknowledged() {
        return unacknowledged;
    }

    List<Reversed> reversed() {
        return reversed;
    }

    /** The answer to each burst event's first delivery, with whether it overlapped an outage. */
    List<BurstAnswer> burstFirstAnswers() {
        return burstFirstAnswers;
    }

    void start(int senders) {
        burst(new Random(seed * 977));
        for (int i = 0; i < senders; i++) {
            Random random = new Random(seed * 131 + i);
            Thread thread = new Thread(() -> {
                while (creating.get()) {
                    subscriber(random);
                }
            }, "chaos-stripe-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /** No new subscribers; events already started are still retried until acknowledged. */
    void stopCreating() {
        creating.set(false);
    }

    /** Waits for every started event to be acknowledged, at most {@code timeout}. */
    void finish(Duration timeout) throws InterruptedException {
        giveUpAt = System.nanoTime() + timeout.toNanos();
        for (Thread thread : threads) {
            thread.join(timeout.toMillis() + 30_000);
        }
        redeliveries.shutdownNow();
    }

    private void subscriber(Random random) {
        int n = subscriberNumber.incrementAndGet();
        String tag = Long.toHexString(seed) + "_" + n;
        String userId = "user_chaos_" + tag;
        String subscriptionId = "sub_chaos_" + tag;
        List<String[]> events = new ArrayList<>();
        String checkoutId = "evt_chaos_co_" + tag;
        events.add(new String[] {checkoutId, "checkout.session.completed", StripeFixtures.event(checkoutId,
                "checkout.session.completed", StripeFixtures.session("cs_chaos_" + tag, "subscription", "paid",
                        userId, subscriptionId, null, 2900, null)), null});
        int cycles = 1 + random.nextInt(4);
        for (int c = 1; c <= cycles; c++) {
            String eventId = "evt_chaos_in_" + tag + "_" + c;
            long start = StripeFixtures.month(c);
            events.add(new String[] {eventId, "invoice.paid", StripeFixtures.event(eventId, "invoice.paid",
                    StripeFixtures.invoice("in_chaos_" + tag + "_" + c, "subscription_cycle", subscriptionId, userId,
                            start, StripeFixtures.month(c + 1), 2900, "conv_" + eventId)), String.valueOf(start)});
        }
        int refunded = random.nextDouble() < 0.5 ? 1 + random.nextInt(cycles) : 0;
        if (refunded > 0) {
            events.add(reversal("refund", tag, refunded));
        }
        int disputed = cycles >= 2 && random.nextDouble() < 0.4 ? (refunded % cycles) + 1 : 0;
        if (disputed > 0 && disputed != refunded) {
            events.add(reversal("dispute", tag, disputed));
        }
        Collections.shuffle(events, random);
        tally.add("stripe.subscribers");
        for (String[] event : events) {
            if (random.nextDouble() < 0.1) {
                leaveProcessingClaim(event[0], event[1]);
            }
            deliver(random, event[0], event[1], event[2]);
            if (unacknowledged.contains(event[0])) {
                continue;
            }
            if (event[1].startsWith("charge.")) {
                reversed.add(new Reversed(event[0], event[3], userId, event[4]));
            } else {
                acked.add(new Acked(event[0], event[1], userId, subscriptionId,
                        event[3] == null ? null : Long.valueOf(event[3])));
            }
        }
    }

    /**
     * A full refund or a dispute of cycle {@code c}'s charge, in the current shape (no {@code invoice} on
     * the charge); the stand-in links its payment intent to the invoice.
     */
    private String[] reversal(String kind, String tag, int c) {
        String suffix = tag + "_" + c;
        String invoiceId = "in_chaos_" + suffix;
        String paymentIntentId = "pi_chaos_" + suffix;
        String chargeId = "ch_chaos_" + suffix;
        StripeApiStandIn.link(paymentIntentId, invoiceId, 2900);
        String eventId = "evt_chaos_" + kind + "_" + suffix;
        String body = "refund".equals(kind)
                ? StripeFixtures.event(eventId, "charge.refunded", StripeFixtures.charge(chargeId, paymentIntentId, 2900,
                        2900))
                : StripeFixtures.event(eventId, "charge.dispute.created", StripeFixtures.dispute("dp_chaos_" + suffix,
                        chargeId, paymentIntentId, 2900));
        tally.add("stripe.reversals." + kind);
        return new String[] {eventId, "refund".equals(kind) ? "charge.refunded" : "charge.dispute.created", body, kind,
                invoiceId};
    }

    /**
     * Distinct events of distinct users (renewals of unseen subscriptions), {@link #BURST_CONCURRENCY}
     * at once across the instances, before any fault: each first answer is kept, then each is delivered
     * until acknowledged like any other.
     */
    private void burst(Random random) {
        String tag = Long.toHexString(seed) + "_burst";
        List<String[]> events = new ArrayList<>();
        for (int i = 0; i < BURST_CONCURRENCY * 2; i++) {
            String userId = "user_chaos_" + tag + "_" + i;
            String subscriptionId = "sub_chaos_" + tag + "_" + i;
            String eventId = "evt_chaos_" + tag + "_" + i;
            long start = StripeFixtures.month(1);
            events.add(new String[] {eventId, StripeFixtures.event(eventId, "invoice.paid", StripeFixtures.invoice(
                    "in_chaos_" + tag + "_" + i, "subscription_cycle", subscriptionId, userId, start,
                    StripeFixtures.month(2), 2900, "conv_" + eventId)), userId, subscriptionId, String.valueOf(start)});
        }
        ExecutorService pool = Executors.newFixedThreadPool(BURST_CONCURRENCY);
        try {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<CompletableFuture<BurstAnswer>> first = new ArrayList<>();
            for (int i = 0; i < events.size(); i++) {
                int instance = i % client.instances();
                String body = events.get(i)[1];
                first.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    long sent = System.nanoTime();
                    Answer a = send(instance, body);
                    String answer = a.status() == 200 ? "200" : a.status() + " " + a.problem();
                    return new BurstAnswer(answer, outages.during(sent, System.nanoTime()));
                }, pool));
            }
            go.countDown();
            for (int i = 0; i < events.size(); i++) {
                BurstAnswer a = first.get(i).join();
                burstFirstAnswers.add(a);
                tally.add("stripe.burst.first-answer." + a.answer());
            }
        } finally {
            pool.shutdownNow();
        }
        for (String[] e : events) {
            deliver(random, e[0], "invoice.paid", e[1]); // already acknowledged: answered duplicate at once
            if (!unacknowledged.contains(e[0])) {
                acked.add(new Acked(e[0], "invoice.paid", e[2], e[3], Long.valueOf(e[4])));
            }
        }
    }

    /** A worker that claimed the event and was killed before its transaction: the claim stays processing. */
    private void leaveProcessingClaim(String eventId, String type) {
        try (Connection c = TestDatabaseName.connect(); PreparedStatement s = c.prepareStatement("""
                INSERT INTO processed_webhook_events (id, source, event_type, claim_token)
                VALUES (?, 'stripe', ?, 'killed-worker') ON CONFLICT DO NOTHING""")) {
            s.setString(1, eventId);
            s.setString(2, type);
            s.executeUpdate();
            faults.add("stripe-claim-left-processing");
        } catch (Exception e) {
            faults.add("stripe-claim-left-processing.error");
        }
    }

    private void deliver(Random random, String eventId, String type, String body) {
        tally.add("stripe.events." + type);
        while (true) {
            if (random.nextDouble() < 0.4) {
                tally.add("stripe.redelivered-in-parallel");
                int other = client.randomInstance(random);
                CompletableFuture<Answer> twin = CompletableFuture.supplyAsync(() -> send(other, body), redeliveries);
                boolean ok = note(send(client.randomInstance(random), body));
                ok |= note(twin.join());
                if (ok) {
                    return;
                }
            } else if (note(send(client.randomInstance(random), body))) {
                if (random.nextDouble() < 0.2) {
                    tally.add("stripe.redelivered-after-ack");
                    note(send(client.randomInstance(random), body));
                }
                return;
            }
            if (System.nanoTime() > giveUpAt) {
                unacknowledged.add(eventId);
                return;
            }
            ServiceProcesses.sleep(300 + random.nextInt(700));
        }
    }

    private Answer send(int instance, String body) {
        long now = System.currentTimeMillis() / 1000;
        return client.stripe(instance, body, StripeFixtures.signature(body, now, StripeFixtures.SECRET));
    }

    private boolean note(Answer a) {
        String what = !a.answered() ? "none"
                : a.status() == 200 && a.json().path("duplicate").asBoolean(false) ? "200 duplicate"
                : a.status() + (a.status() == 200 ? "" : " " + a.problem());
        tally.add("stripe.answer." + what);
        return a.status() >= 200 && a.status() < 300;
    }
}
