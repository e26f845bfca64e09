package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.event;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.session;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.support.Http;
import com.acme.payments.support.Instances;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.TestDatabase;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Distinct events never conflict: renewals, subscription checkouts and one-off purchases of different
 * users, all sent at once to two instances, are each answered 200 on their first delivery and none is
 * retried. Under SERIALIZABLE, predicate locks on shared index pages aborted a share of them (40001)
 * although they touch no common row.
 *
 * <p>And a burst queues in the Stripe bulkhead, not in the pool: while the test holds a lock every delivery's
 * transaction waits for (a slow database, on any machine), each instance's deliveries fill their permits and
 * the rest queue in the bulkhead, until every delivery in flight is held there or in the database; then the
 * lock goes and all are answered 200. Each instance has a pool smaller than its share of the burst with the shortest
 * wait Hikari takes (4 connections, 250 ms) and 2 permits: without the bulkhead the deliveries beyond the pool
 * wait for a connection that never frees while the lock is held, time out and are answered 503 (seen failing
 * so with an unbounded semaphore). The burst's answers and latencies are printed (the test's output file).
 */
class DistinctEventsConcurrencyIntegrationTests extends StripeIntegrationTest {

    private static final Map<String, Object> SMALL_POOL = Map.of("stripe.api-base", PspStub.baseUrl(),
            "spring.datasource.hikari.maximum-pool-size", "4", "spring.datasource.hikari.connection-timeout", "250",
            "stripe.bulkhead.permits", "2", "stripe.bulkhead.max-wait", "10s");
    private static ConfigurableApplicationContext a;
    private static ConfigurableApplicationContext b;

    @BeforeAll
    static void startTwoInstances() {
        a = Instances.start(SMALL_POOL);
        b = Instances.start(SMALL_POOL);
    }

    @AfterAll
    static void stopInstances() {
        for (ConfigurableApplicationContext instance : new ConfigurableApplicationContext[] { a, b }) {
            if (instance != null) {
                instance.close();
            }
        }
    }

    @ParameterizedTest(name = "{0} concurrent deliveries")
    @ValueSource(ints = { 16, 64 })
    void distinctEventsAreEachAnswered200OnFirstDelivery(int concurrency) throws Exception {
        List<Http> instances = List.of(http(a), http(b));
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < concurrency * 3; i++) {
            cases.add(Case.of(i % 3));
        }
        double retriesBefore = retries();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        List<Long> millis = new java.util.concurrent.CopyOnWriteArrayList<>();
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Http.Response>> answers = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                Http target = instances.get(i % 2);
                String body = cases.get(i).body();
                answers.add(pool.submit(() -> {
                    start.await();
                    long t0 = System.nanoTime();
                    Http.Response r = deliver(target, body);
                    millis.add((System.nanoTime() - t0) / 1_000_000);
                    return r;
                }));
            }
            try (Connection slow = TestDatabase.connect(); Statement lock = slow.createStatement()) {
                slow.setAutoCommit(false);
                // every case credits its user: each delivery's transaction waits here, holding its connection
                lock.execute("LOCK TABLE billing_user IN SHARE MODE");
                start.countDown();
                awaitEveryDeliveryHeld(answers, Math.min(concurrency, cases.size()), slow);
                slow.rollback();
            }
            List<Integer> statuses = new ArrayList<>();
            List<Http.Response> responses = new ArrayList<>();
            for (Future<Http.Response> answer : answers) {
                Http.Response r = answer.get(5, TimeUnit.MINUTES);
                statuses.add(r.status());
                responses.add(r);
            }
            List<Long> sorted = millis.stream().sorted().toList();
            System.out.printf("BURST concurrency=%d n=%d non200=%d p50=%dms p99=%dms max=%dms statuses=%s%n", concurrency,
                    sorted.size(), statuses.stream().filter(x -> x != 200).count(), sorted.get(sorted.size() / 2),
                    sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1), sorted.get(sorted.size() - 1),
                    statuses.stream().collect(java.util.stream.Collectors.groupingBy(x -> x, java.util.stream.Collectors.counting())));
            for (Http.Response r : responses) {
                assertThat(r.json().has("duplicate")).isFalse();
            }

            assertThat(statuses).as("first-delivery answers").containsOnly(200);
        } finally {
            pool.shutdownNow();
        }
        assertThat(retries() - retriesBefore).as("transactions retried after a conflict").isZero();
        for (Case c : cases) {
            assertThat(eventState(c.eventId())).isEqualTo("completed");
            assertThat(credits(c.userId())).as("credits of %s", c.userId()).isEqualTo(c.credits());
            if (c.subscriptionId() != null) {
                assertThat(grantCount(c.subscriptionId())).isEqualTo(1);
            }
        }
    }

    /**
     * Until every delivery in flight (one per sender thread) waits for the lock inside the database or is queued
     * in an instance's bulkhead, or until one is answered: none can be answered 200 while the lock is held, so
     * an answer is a refusal and the assertions say so (at most a minute).
     */
    private static void awaitEveryDeliveryHeld(List<Future<Http.Response>> answers, int inFlight, Connection c)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            if (answers.stream().anyMatch(Future::isDone) || lockWaiters(c) + queued(a) + queued(b) >= inFlight) {
                return;
            }
            Thread.sleep(20);
        }
    }

    private static long lockWaiters(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
                SELECT count(*) FROM pg_locks
                 WHERE NOT granted AND relation = 'billing_user'::regclass
                   AND database = (SELECT oid FROM pg_database WHERE datname = current_database())""")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Deliveries queued for a permit; 0 where there is no bulkhead. */
    private static long queued(ConfigurableApplicationContext instance) {
        Gauge waiting = instance.getBean(MeterRegistry.class).find("stripe.bulkhead.waiting").gauge();
        return waiting == null ? 0 : (long) waiting.value();
    }

    private static Http http(ConfigurableApplicationContext instance) {
        return new Http("http://localhost:" + instance.getEnvironment().getProperty("local.server.port"));
    }

    private static double retries() {
        return a.getBean(MeterRegistry.class).counter("stripe.transaction.retries").count()
                + b.getBean(MeterRegistry.class).counter("stripe.transaction.retries").count();
    }

    /** One event of its own user: a renewal of an unseen subscription, a subscription checkout, or a purchase. */
    private record Case(String eventId, String userId, String subscriptionId, String body, long credits) {

        static Case of(int kind) {
            String eventId = id("evt");
            String userId = id("user");
            return switch (kind) {
                case 0 -> {
                    String subscriptionId = id("sub");
                    yield new Case(eventId, userId, subscriptionId,
                            renewal(eventId, subscriptionId, userId, 1, "conv_" + eventId), 500);
                }
                case 1 -> {
                    String subscriptionId = id("sub");
                    yield new Case(eventId, userId, subscriptionId, event(eventId, "checkout.session.completed",
                            session(id("cs"), "subscription", "paid", userId, subscriptionId, null, 2900, null)), 500);
                }
                default -> new Case(eventId, userId, null, event(eventId, "checkout.session.completed",
                        session(id("cs"), "payment", "paid", userId, null, id("pi"), 5000,
                                "\"productId\": \"prod_credits_pack\"")), 1000);
            };
        }
    }
}
