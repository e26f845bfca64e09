package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The interleaving the loaded chaos run found: relay A sends an effect and is slow — its
 * lease runs out while the call is in flight, or its "sent" write fails again and again — and relay B,
 * seeing an expired lease, took the key over and sent the effect a second time. Two instances (two
 * application contexts, one database, each with its own relay session), a sink that holds A's call
 * until the test lets it go, leases moved into the past by SQL (exactly "A was stalled longer than
 * its lease"), nothing decided by timing. Only a holder whose database session has really ended may be
 * taken over, and that resend is counted ({@code taken_over}).
 */
class OutboxSlowRelayIntegrationTests extends OutboxIntegrationTest {

    private HoldingSink sink;
    private ConfigurableApplicationContext a;
    private ConfigurableApplicationContext b;

    @BeforeEach
    void twoInstancesAndAHoldingSink() throws IOException {
        sink = new HoldingSink(prefix);
        String url = "http://localhost:" + sink.port() + "/sink";
        // A held call must outlast nothing but the test's own steps: a long read timeout, a lease to match.
        String[] sinks = { "payments.outbox.sinks.notify-url=" + url, "payments.outbox.sinks.conversion-url=" + url,
                "payments.outbox.sinks.fulfilment-url=" + url, "payments.outbox.sinks.read-timeout=60s",
                "payments.outbox.lease=130s" };
        a = OutboxTwoRelaysIntegrationTests.startInstance(sinks);
        b = OutboxTwoRelaysIntegrationTests.startInstance(sinks);
        relay(b).runUntilIdle(Duration.ofSeconds(10)); // other tests' leftovers, so the counters below are ours
    }

    @AfterEach
    void stopAll() {
        sink.release();
        jdbc.sql("DROP TRIGGER IF EXISTS slow_relay_cut_sent ON outbox_dedup").update();
        jdbc.sql("DROP FUNCTION IF EXISTS slow_relay_cut_sent()").update();
        jdbc.sql("DROP TABLE IF EXISTS slow_relay_cut_sent_switch").update();
        jdbc.sql("DROP SEQUENCE IF EXISTS slow_relay_cut_sent_seq").update();
        for (ConfigurableApplicationContext context : new ConfigurableApplicationContext[] { a, b }) {
            if (context != null) {
                context.close();
            }
        }
        sink.stop();
    }

    @Test
    @DisplayName("a relay whose lease runs out while its call is in flight is not doubled by another relay")
    void leaseExpiringMidCallDoesNotLetASecondRelaySend() throws Exception {
        String key = prefix + "1:renewal_notice";
        enqueue(notice(prefix + "1", "sub_" + prefix));
        sink.holdFirstCall();
        CompletableFuture<Integer> turnOfA = CompletableFuture.supplyAsync(() -> relay(a).runOnce());
        assertThat(sink.firstCallArrived()).as("A's call reached the sink").isTrue();

        expireLeases(); // A is stalled past its lease, its call still open
        relay(b).runOnce();
        assertThat(sink.calls(key)).as("B must not send what A is sending").isEqualTo(1);

        sink.release(); // A's call now gets its 2xx, late
        turnOfA.get(60, TimeUnit.SECONDS);
        relay(b).runOnce();
        assertThat(sink.calls(key)).isEqualTo(1);
        assertDeliveredOnceBy(key);
        assertThat(counted(b, "taken_over")).isZero();
    }

    @Test
    @DisplayName("a relay whose 'sent' write keeps failing is not doubled: it writes again until it lands")
    void sentWriteCutAgainAndAgainDoesNotLetASecondRelaySend() throws Exception {
        String key = prefix + "1:renewal_notice";
        // Every 'sent' write of this test's keys fails while the switch is on, as under a connection killer.
        jdbc.sql("CREATE TABLE slow_relay_cut_sent_switch (cut boolean NOT NULL)").update();
        jdbc.sql("INSERT INTO slow_relay_cut_sent_switch VALUES (true)").update();
        jdbc.sql("CREATE SEQUENCE slow_relay_cut_sent_seq").update();
        jdbc.sql("""
                CREATE FUNCTION slow_relay_cut_sent() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF NEW.state = 'sent' AND NEW.idempotency_key LIKE '%s%%'
                     AND (SELECT cut FROM slow_relay_cut_sent_switch) THEN
                    PERFORM nextval('slow_relay_cut_sent_seq'); -- not transactional: the test sees each cut
                    RAISE EXCEPTION 'sent write cut (test)';
                  END IF;
                  RETURN NEW;
                END $$""".formatted(prefix)).update();
        jdbc.sql("""
                CREATE TRIGGER slow_relay_cut_sent BEFORE UPDATE ON outbox_dedup
                   FOR EACH ROW EXECUTE FUNCTION slow_relay_cut_sent()""").update();
        enqueue(notice(prefix + "1", "sub_" + prefix));

        CompletableFuture<Integer> turnOfA = CompletableFuture.supplyAsync(() -> relay(a).runOnce());
        // More failed writes than the relay used to try (3), or A gave up: either way, on to B.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> cuts() > 3 || turnOfA.isDone());
        assertThat(sink.calls(key)).isEqualTo(1);

        expireLeases(); // A's write is late past its lease
        relay(b).runOnce();
        assertThat(sink.calls(key)).as("B must not send what A has sent").isEqualTo(1);

        jdbc.sql("UPDATE slow_relay_cut_sent_switch SET cut = false").update();
        turnOfA.get(60, TimeUnit.SECONDS);
        relay(b).runOnce();
        assertThat(sink.calls(key)).isEqualTo(1);
        assertDeliveredOnceBy(key);
    }

    @Test
    @DisplayName("a key whose holder's session has ended is taken over after the lease, resent and counted")
    void holderWhoseSessionEndedIsTakenOverAndTheResendCounted() throws Exception {
        String key = prefix + "1:renewal_notice";
        enqueue(notice(prefix + "1", "sub_" + prefix));
        sink.holdFirstCall();
        CompletableFuture<Integer> turnOfA = CompletableFuture.supplyAsync(() -> relay(a).runOnce());
        assertThat(sink.firstCallArrived()).isTrue();

        // A's session ends (as when its process dies): its lock is free, so its outcome is truly unknown.
        int terminated = jdbc.sql("""
                SELECT count(*) FILTER (WHERE pg_terminate_backend(l.pid))::int
                  FROM pg_locks l JOIN outbox_dedup d ON l.objid::bigint = d.holder
                 WHERE d.idempotency_key = :key AND l.locktype = 'advisory' AND l.classid = 31012
                   AND l.objsubid = 2 AND l.granted""").param("key", key).query(Integer.class).single();
        assertThat(terminated).as("A's session lock was found and its session ended").isEqualTo(1);
        expireLeases();
        relay(b).runOnce();
        assertThat(sink.calls(key)).as("B resends with the same key").isEqualTo(2);
        assertThat(counted(b, "taken_over")).isEqualTo(1.0);

        sink.release();
        turnOfA.get(60, TimeUnit.SECONDS);
        assertThat(counted(a, "lease_lost")).isEqualTo(1.0); // A's late 2xx cannot be recorded: B owns the row
        assertThat(sink.calls(key)).isEqualTo(2);
        assertDeliveredOnceBy(key);
    }

    /** As if the holder had been stalled past its lease: row and key leases lie in the past. */
    private void expireLeases() {
        jdbc.sql("""
                UPDATE outbox SET lease_until = now() - interval '1 second', next_attempt_at = now() - interval '1 second'
                 WHERE idempotency_key LIKE :p AND state = 'pending'""").param("p", prefix + "%").update();
        assertThat(jdbc.sql("""
                UPDATE outbox_dedup SET lease_until = now() - interval '1 second'
                 WHERE idempotency_key LIKE :p AND state = 'sending'""").param("p", prefix + "%").update())
                .as("the key is held in 'sending'").isEqualTo(1);
    }

    private void assertDeliveredOnceBy(String key) {
        assertThat(jdbc.sql("SELECT state || '/' || settled_as FROM outbox WHERE idempotency_key = :k")
                .param("k", key).query(String.class).list()).containsExactly("delivered/sent");
        assertThat(jdbc.sql("SELECT state FROM outbox_dedup WHERE idempotency_key = :k")
                .param("k", key).query(String.class).list()).containsExactly("sent");
    }

    private long cuts() {
        return jdbc.sql("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM slow_relay_cut_sent_seq")
                .query(Long.class).single();
    }

    private static OutboxRelay relay(ConfigurableApplicationContext context) {
        return context.getBean(OutboxRelay.class);
    }

    private static double counted(ConfigurableApplicationContext context, String result) {
        return context.getBean(MeterRegistry.class).find("payments.outbox.deliveries").tag("result", result)
                .counters().stream().mapToDouble(Counter::count).sum();
    }

    /** A sink that answers 200, counts this test's keys, and can hold the first of their calls open. */
    static final class HoldingSink {

        private final String prefix;
        private final HttpServer server;
        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        private final AtomicBoolean holdNext = new AtomicBoolean();
        private final CountDownLatch arrived = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        HoldingSink(String prefix) throws IOException {
            this.prefix = prefix;
            this.server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
            server.createContext("/sink", this::handle);
            server.setExecutor(Executors.newFixedThreadPool(8));
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        void holdFirstCall() {
            holdNext.set(true);
        }

        boolean firstCallArrived() throws InterruptedException {
            return arrived.await(60, TimeUnit.SECONDS);
        }

        void release() {
            released.countDown();
        }

        int calls(String key) {
            return calls.getOrDefault(key, new AtomicInteger()).get();
        }

        void stop() {
            server.stop(0);
        }

        private void handle(HttpExchange exchange) throws IOException {
            exchange.getRequestBody().readAllBytes();
            String key = exchange.getRequestHeaders().getFirst(SinkClient.IDEMPOTENCY_KEY);
            if (key != null && key.startsWith(prefix)) {
                calls.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                if (holdNext.compareAndSet(true, false)) {
                    arrived.countDown();
                    try {
                        released.await(120, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
            byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        }
    }
}
