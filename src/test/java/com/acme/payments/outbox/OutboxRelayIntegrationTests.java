package com.acme.payments.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.github.tomakehurst.wiremock.stubbing.Scenario;

import tools.jackson.databind.json.JsonMapper;

class OutboxRelayIntegrationTests extends OutboxIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    private OutboxMetrics meters;
    @Autowired
    private io.micrometer.core.instrument.MeterRegistry meterRegistry;

    @Test
    @DisplayName("committed-retry-sends-once")
    void everyRedeliveredRowReachesTheSinkOnce() {
        List<OutboxEntry> effects = List.of(
                notice(prefix + "1", "sub_" + prefix),
                new OutboxEntry("conversion", "subscription", "sub_" + prefix, prefix + "1",
                        Map.of("event_id", "conv_" + prefix, "event_name", "Purchase", "value", "29.00",
                                "currency", "EUR", "source", "webhook")),
                new OutboxEntry("order_paid", "order", "ord_" + prefix, prefix + "pay",
                        Map.of("orderRef", "ord_" + prefix, "pspPaymentId", prefix + "pay", "amount", "10.01",
                                "currency", "EUR")),
                new OutboxEntry("dispute_opened", "charge", "ch_" + prefix, prefix + "2",
                        Map.of("kind", "dispute_opened", "chargeId", "ch_" + prefix, "amount", "5.00",
                                "currency", "EUR")));
        enqueue(effects.toArray(OutboxEntry[]::new));
        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(sentKeys()).hasSize(4);

        // Every row comes back: the same effects committed again (duplicate rows with the same keys),
        // and every delivered row reset to pending as if its outcome had never been recorded.
        enqueue(effects.toArray(OutboxEntry[]::new));
        jdbc.sql("""
                UPDATE outbox SET state = 'pending', settled_as = NULL, delivered_at = NULL, next_attempt_at = now()
                 WHERE idempotency_key LIKE :prefix AND state = 'delivered'
                """).param("prefix", prefix + "%").update();
        relay.runUntilIdle(Duration.ofSeconds(10));

        assertThat(sentKeys()).containsExactlyInAnyOrder(prefix + "1:renewal_notice", prefix + "1:conversion",
                prefix + "pay:order_paid", prefix + "2:dispute_opened");
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 8L));
        assertThat(sinkRequests()).allSatisfy(request -> {
            String key = request.getHeader(SinkClient.IDEMPOTENCY_KEY);
            OutboxEntry effect = effects.stream().filter(e -> e.idempotencyKey().equals(key)).findFirst().orElseThrow();
            var body = (tools.jackson.databind.node.ObjectNode) JSON.readTree(request.getBodyAsString());
            assertThat(body.remove("effectId").asString()).isEqualTo(key);
            assertThat(body.remove("createdAt")).isNotNull();
            assertThat(body).as("the payload, then what the effect says of itself").isEqualTo(JSON.valueToTree(effect.payload()));
            assertThat(request.getHeader("Content-Type")).startsWith("application/json");
        });
    }

    @Test
    void aRowWhoseTwinHoldsTheKeyWaitsAndThenSettlesWithoutASend() {
        String key = prefix + "1:renewal_notice";
        // The same effect twice in one batch (different aggregates, so both are claimable together).
        enqueue(notice(prefix + "1", "sub_x_" + prefix), notice(prefix + "1", "sub_y_" + prefix));
        double busyBefore = deliveries("busy");

        relay.runOnce();
        assertThat(sentKeys()).containsExactly(key);
        assertThat(deliveries("busy") - busyBefore).isEqualTo(1.0);
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 1L, "pending", 1L));

        makeDue();
        relay.runOnce();
        assertThat(sentKeys()).containsExactly(key);
        assertThat(jdbc.sql("SELECT settled_as FROM outbox WHERE idempotency_key = :key ORDER BY id")
                .param("key", key).query(String.class).list()).containsExactly("sent", "duplicate");
    }

    private double deliveries(String result) {
        return meterRegistry.find("payments.outbox.deliveries").tag("result", result).counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    @Test
    void aSinkThatFailsTwiceGetsTheSameKeyEachTimeAndTheRowEndsDelivered() {
        String key = prefix + "1:renewal_notice";
        String scenario = "fails-twice-" + prefix;
        psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1).withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(key))
                .inScenario(scenario).whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("failed-once"));
        psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1).withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(key))
                .inScenario(scenario).whenScenarioStateIs("failed-once")
                .willReturn(aResponse().withStatus(500)).willSetStateTo("failed-twice"));
        enqueue(notice(prefix + "1", "sub_" + prefix));
        long id = idOf(key);

        relay.runOnce();
        Map<String, Object> afterFirst = row(id);
        assertThat(afterFirst).containsEntry("state", "pending").containsEntry("attempts", 1)
                .containsEntry("last_error", "HTTP 503");
        assertThat(retryDelay(afterFirst)).isBetween(Duration.ofMillis(700), Duration.ofMillis(1300));

        makeDue();
        relay.runOnce();
        Map<String, Object> afterSecond = row(id);
        assertThat(afterSecond).containsEntry("attempts", 2).containsEntry("last_error", "HTTP 500");
        assertThat(retryDelay(afterSecond)).isBetween(Duration.ofMillis(1500), Duration.ofMillis(2500));

        makeDue();
        relay.runOnce();
        assertThat(sentKeys()).containsExactly(key, key, key);
        assertThat(row(id)).containsEntry("state", "delivered").containsEntry("settled_as", "sent")
                .containsEntry("attempts", 2);
    }

    @Test
    void aSinkThatAlwaysFailsParksTheRowDeadAndARedriveDeliversIt() {
        String key = prefix + "1:renewal_notice";
        psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1)
                .withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(key)).willReturn(aResponse().withStatus(500)));
        enqueue(notice(prefix + "1", "sub_" + prefix));
        long id = idOf(key);

        for (int i = 0; i < MAX_ATTEMPTS + 2; i++) {
            relay.runOnce();
            makeDue();
        }
        assertThat(sentKeys()).hasSize(MAX_ATTEMPTS);
        assertThat(row(id)).containsEntry("state", "dead").containsEntry("attempts", MAX_ATTEMPTS)
                .containsEntry("last_error", "HTTP 500");
        var dead = http().bearer("test-admin-key").get("/api/admin/outbox?state=dead&limit=500");
        assertThat(dead.status()).isEqualTo(200);
        assertThat(dead.body()).contains(key);
        meters.refreshNow();
        String metrics = http().get("/actuator/prometheus").body();
        assertThat(metrics).containsPattern("payments_outbox_deliveries_total\\{[^}]*kind=\"renewal_notice\"[^}]*result=\"dead\"");
        assertThat(gauge(metrics, "payments_outbox_dead")).isGreaterThanOrEqualTo(1);

        psp.resetMappings();
        sinksAcceptByDefaultKeepingPrefix();
        var redrive = http().bearer("test-admin-key").post("/api/admin/outbox/" + id + "/redrive", "");
        assertThat(redrive.status()).isEqualTo(200);
        assertThat(redrive.json().path("state").asString()).isEqualTo("pending");
        relay.runOnce();

        assertThat(sentKeys()).hasSize(MAX_ATTEMPTS + 1).containsOnly(key);
        assertThat(row(id)).containsEntry("state", "delivered");
    }

    @Test
    void rowsOfOneAggregateAreDeliveredInCreationOrderAndOtherAggregatesAreNotHeldUp() {
        String a = "sub_a_" + prefix;
        String b = "sub_b_" + prefix;
        String firstOfA = prefix + "a1:renewal_notice";
        psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1)
                .withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(firstOfA))
                .inScenario("a1-" + prefix).whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("recovered"));
        for (int i = 1; i <= 4; i++) {
            enqueue(notice(prefix + "a" + i, a)); // one business transaction each, in this order
        }
        enqueue(notice(prefix + "b1", b));
        enqueue(notice(prefix + "b2", b));

        relay.runUntilIdle(Duration.ofSeconds(10));
        // a1 failed and waits for its retry: nothing else of A went out; B is not held up by A.
        assertThat(keysOf(prefix + "a")).containsExactly(firstOfA);
        assertThat(keysOf(prefix + "b")).containsExactly(prefix + "b1:renewal_notice", prefix + "b2:renewal_notice");

        makeDue();
        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(keysOf(prefix + "a")).containsExactly(firstOfA, firstOfA, prefix + "a2:renewal_notice",
                prefix + "a3:renewal_notice", prefix + "a4:renewal_notice");
        List<OffsetDateTime> deliveredInIdOrder = jdbc.sql(
                "SELECT delivered_at FROM outbox WHERE aggregate_id = :a ORDER BY id")
                .param("a", a).query(OffsetDateTime.class).list();
        assertThat(deliveredInIdOrder).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void aDeadRowHoldsBackItsAggregateUntilRedriven() {
        String c = "sub_c_" + prefix;
        String first = prefix + "c1:renewal_notice";
        psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1)
                .withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(first)).willReturn(aResponse().withStatus(500)));
        enqueue(notice(prefix + "c1", c));
        enqueue(notice(prefix + "c2", c));
        for (int i = 0; i < MAX_ATTEMPTS + 2; i++) {
            relay.runOnce();
            makeDue();
        }
        assertThat(row(idOf(first))).containsEntry("state", "dead");
        assertThat(sentKeys()).containsOnly(first);
        assertThat(row(idOf(prefix + "c2:renewal_notice"))).containsEntry("state", "pending");

        psp.resetMappings();
        sinksAcceptByDefaultKeepingPrefix();
        assertThat(http().bearer("test-admin-key").post("/api/admin/outbox/" + idOf(first) + "/redrive", "").status())
                .isEqualTo(200);
        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(sentKeys()).endsWith(first, prefix + "c2:renewal_notice");
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 2L));
    }

    @Test
    void aKindWithoutASinkStaysPendingAndShowsAsUnroutable() {
        enqueue(new OutboxEntry("carrier_pigeon", "subscription", "sub_" + prefix, prefix + "1", Map.of("kind", "x")));
        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(sentKeys()).isEmpty();
        assertThat(row(idOf(prefix + "1:carrier_pigeon"))).containsEntry("state", "pending").containsEntry("attempts", 0)
                .containsEntry("lease_version", 0L); // never even claimed
        meters.refreshNow();
        String metrics = http().get("/actuator/prometheus").body();
        assertThat(gauge(metrics, "payments_outbox_unroutable")).isGreaterThanOrEqualTo(1);
    }

    @Test
    @DisplayName("deliveries to a sink with a secret carry a Payments-Signature the shop can verify; others none")
    void deliveriesAreSignedWithTheirSinksSecret() throws Exception {
        enqueue(notice(prefix + "s1", "sub_" + prefix));
        enqueue(new OutboxEntry("order_paid", "order", "ord_" + prefix, prefix + "p1",
                Map.of("orderRef", "o-" + prefix, "amount", "10.01", "currency", "EUR")));
        relay.runUntilIdle(Duration.ofSeconds(10));

        var notify = sinkRequests().stream().filter(r -> r.getUrl().startsWith("/sinks/notify")).findFirst()
                .orElseThrow();
        String signature = notify.getHeader(SinkSignature.HEADER);
        assertThat(signature).matches("t=\\d+,v1=[0-9a-f]{64}");
        long now = java.time.Instant.now().getEpochSecond();
        assertThat(ShopSideSignatureCheck.verify(signature, notify.getBody(), NOTIFY_SECRET, now, 300)).isTrue();
        assertThat(ShopSideSignatureCheck.verify(signature, notify.getBody(), "another-secret", now, 300)).isFalse();
        var fulfilment = sinkRequests().stream().filter(r -> r.getUrl().startsWith("/sinks/fulfilment")).findFirst()
                .orElseThrow();
        assertThat(fulfilment.containsHeader(SinkSignature.HEADER)).as("FULFILMENT_SINK_SECRET is not set").isFalse();
    }

    @Test
    @DisplayName("a sink secret mid-roll (new,old) signs each delivery once per secret: verifiable with old and new")
    void aRollingSinkSecretSignsWithBoth() throws Exception {
        enqueue(new OutboxEntry("conversion", "subscription", "sub_" + prefix, prefix + "r1",
                Map.of("event_id", "conv-" + prefix, "event_name", "Purchase", "value", "29.00", "currency", "EUR")));
        relay.runUntilIdle(Duration.ofSeconds(10));

        var conversion = sinkRequests().stream().filter(r -> r.getUrl().startsWith("/sinks/conversion")).findFirst()
                .orElseThrow();
        String signature = conversion.getHeader(SinkSignature.HEADER);
        assertThat(signature).matches("t=\\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}");
        long t = Long.parseLong(signature.substring(2, signature.indexOf(',')));
        assertThat(signature).as("the new secret's v1 first, then the old one's")
                .isEqualTo(SinkSignature.header(List.of(CONVERSION_NEW_SECRET, CONVERSION_OLD_SECRET), t,
                        conversion.getBodyAsString()));
        long now = java.time.Instant.now().getEpochSecond();
        assertThat(ShopSideSignatureCheck.verify(signature, conversion.getBody(), CONVERSION_OLD_SECRET, now, 300))
                .as("a shop still on the old secret").isTrue();
        assertThat(ShopSideSignatureCheck.verify(signature, conversion.getBody(), CONVERSION_NEW_SECRET, now, 300))
                .as("a shop already on the new one").isTrue();
        assertThat(ShopSideSignatureCheck.verify(signature, conversion.getBody(), NOTIFY_SECRET, now, 300)).isFalse();
    }

    @Test
    @DisplayName("every effect says what it is: each sink body carries effectId (its Idempotency-Key) and createdAt (RFC 3339, UTC)")
    void everySinkBodyCarriesItsEffectIdAndCreatedAt() {
        enqueue(notice(prefix + "w1", "sub_" + prefix));
        enqueue(new OutboxEntry("order_paid", "order", "ord_" + prefix, prefix + "w2",
                Map.of("orderRef", "o-" + prefix, "amount", "10.01", "currency", "EUR")));
        enqueue(new OutboxEntry("conversion", "subscription", "sub_" + prefix, prefix + "w3",
                Map.of("event_id", "conv-" + prefix, "event_name", "Purchase", "value", "29.00", "currency", "EUR")));
        relay.runUntilIdle(Duration.ofSeconds(10));

        assertThat(sinkRequests()).hasSize(3).allSatisfy(request -> {
            String key = request.getHeader(SinkClient.IDEMPOTENCY_KEY);
            var body = tools.jackson.databind.json.JsonMapper.builder().build().readTree(request.getBodyAsString());
            assertThat(body.path("effectId").asString()).as(request.getBodyAsString()).isEqualTo(key);
            String createdAt = body.path("createdAt").asString();
            assertThat(createdAt).as("RFC 3339, UTC").endsWith("Z");
            java.time.OffsetDateTime written = jdbc.sql("SELECT created_at FROM outbox WHERE id = :id")
                    .param("id", idOf(key)).query(java.time.OffsetDateTime.class).single();
            assertThat(java.time.Instant.parse(createdAt)).isEqualTo(written.toInstant());
        });
        var paid = sinkRequests().stream().filter(r -> r.getUrl().startsWith("/sinks/fulfilment")).findFirst()
                .orElseThrow();
        var body = tools.jackson.databind.json.JsonMapper.builder().build().readTree(paid.getBodyAsString());
        assertThat(body.path("orderRef").asString()).as("the payload is still all there").isEqualTo("o-" + prefix);
        assertThat(body.path("amount").asString()).isEqualTo("10.01");
    }

    /** Keys the sink received that start with {@code start}, in the order it received them. */
    private List<String> keysOf(String start) {
        return sentKeys().stream().filter(k -> k.startsWith(start)).toList();
    }

    private void sinksAcceptByDefaultKeepingPrefix() {
        psp.stubFor(post(urlPathMatching("/sinks/.*")).atPriority(10).willReturn(aResponse().withStatus(200)));
    }

    /** How far in the future the row's retry was put, on the database clock. */
    private Duration retryDelay(Map<String, Object> row) {
        Long id = ((Number) row.get("id")).longValue();
        double seconds = jdbc.sql("""
                SELECT extract(epoch FROM next_attempt_at - now()) FROM outbox WHERE id = :id
                """).param("id", id).query(Double.class).single();
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    static double gauge(String prometheus, String name) {
        return prometheus.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
    }
}
