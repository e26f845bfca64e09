package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.PaymentsApplication;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.TestDatabase;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Two instances (two application contexts on one database) share the outbox without a double send. */
class OutboxTwoRelaysIntegrationTests extends OutboxIntegrationTest {

    private ConfigurableApplicationContext second;
    @Autowired
    private MeterRegistry meterRegistry;

    @BeforeEach
    void startSecondInstance() {
        second = startInstance();
    }

    @AfterEach
    void stopSecondInstance() {
        if (second != null) {
            second.close();
        }
    }

    static ConfigurableApplicationContext startInstance(String... extra) {
        List<String> properties = new ArrayList<>(List.of(
                "spring.datasource.url=" + TestDatabase.url(),
                "spring.datasource.username=" + TestDatabase.user(),
                "spring.datasource.password=" + TestDatabase.password(),
                "payments.psp.api-url=" + PspStub.baseUrl(),
                "payments.outbox.sinks.notify-url=" + PspStub.baseUrl() + "/sinks/notify",
                "payments.outbox.sinks.conversion-url=" + PspStub.baseUrl() + "/sinks/conversion",
                "payments.outbox.sinks.fulfilment-url=" + PspStub.baseUrl() + "/sinks/fulfilment",
                "payments.outbox.max-attempts=" + MAX_ATTEMPTS,
                "server.port=0"));
        properties.addAll(List.of(extra));
        // As command-line arguments: default properties would lose to application.yml's placeholders.
        // One argument per name, the last given winning (a repeated name would be joined with a comma).
        Map<String, String> byName = new java.util.LinkedHashMap<>();
        properties.forEach(p -> byName.put(p.substring(0, p.indexOf('=')), p));
        return new SpringApplicationBuilder(PaymentsApplication.class).profiles("test")
                .run(byName.values().stream().map(p -> "--" + p).toArray(String[]::new));
    }

    @Test
    void twoRelaysOn500RowsDeliverEachEffectExactlyOnce() throws Exception {
        OutboxRelay other = second.getBean(OutboxRelay.class);
        relay.runUntilIdle(Duration.ofSeconds(10)); // other tests' leftovers, so the counters below are ours
        double sentByFirstBefore = sent(meterRegistry);
        double sentBySecondBefore = sent(second.getBean(MeterRegistry.class));
        List<OutboxEntry> effects = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            // 250 aggregates with two effects each, so ordering holds while both relays work
            effects.add(notice(prefix + i, "sub_" + prefix + (i % 250)));
        }
        for (int i = 0; i < effects.size(); i += 50) {
            enqueue(effects.subList(i, i + 50).toArray(OutboxEntry[]::new));
        }
        // 50 effects committed twice (a retried business transaction): two rows, one key, racing relays
        enqueue(effects.subList(0, 50).toArray(OutboxEntry[]::new));

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
            CompletableFuture<Integer> a = CompletableFuture.supplyAsync(() -> relay.runUntilIdle(Duration.ofSeconds(5)));
            CompletableFuture<Integer> b = CompletableFuture.supplyAsync(() -> other.runUntilIdle(Duration.ofSeconds(5)));
            a.get();
            b.get();
            makeDue(); // rows handed back because their twin held the key
            assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 550L));
        });

        Map<String, Long> sendsPerKey = sentKeys().stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(sendsPerKey).hasSize(500);
        assertThat(sendsPerKey.values()).containsOnly(1L);
        assertThat(jdbc.sql("""
                SELECT count(*) FROM outbox WHERE idempotency_key LIKE :prefix AND settled_as = 'duplicate'
                """).param("prefix", prefix + "%").query(Long.class).single()).isEqualTo(50L);
        List<String> owners = jdbc.sql("""
                SELECT DISTINCT lease_owner FROM outbox WHERE idempotency_key LIKE :prefix
                """).param("prefix", prefix + "%").query(String.class).list();
        assertThat(owners).containsOnlyNulls();
        double sentByFirst = sent(meterRegistry) - sentByFirstBefore;
        double sentBySecond = sent(second.getBean(MeterRegistry.class)) - sentBySecondBefore;
        assertThat(sentByFirst).isPositive(); // both instances did part of the work
        assertThat(sentBySecond).isPositive();
        assertThat(sentByFirst + sentBySecond).isGreaterThanOrEqualTo(500.0); // + any other test's row come due
    }

    private static double sent(MeterRegistry registry) {
        return registry.find("payments.outbox.deliveries").tag("result", "sent").counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
