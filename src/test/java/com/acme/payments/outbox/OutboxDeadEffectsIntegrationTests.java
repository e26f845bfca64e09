package com.acme.payments.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;

import tools.jackson.databind.JsonNode;

/**
 * docs/outbox.md, "Retry, dead, redrive, discard": a dead effect holds back its stream (its
 * aggregate and sink) until an operator re-drives it or discards it; a discard settles it unsent and the
 * effects behind it go on; a bulk redrive puts exactly the matching dead effects back in line.
 */
class OutboxDeadEffectsIntegrationTests extends OutboxIntegrationTest {

    @Test
    @DisplayName("a dead effect blocks the one behind it in its stream; discarding it lets that one be delivered")
    void discardingADeadEffectLetsItsStreamGoOn() {
        String subscription = "sub_" + prefix;
        String first = prefix + "1:renewal_notice";
        String second = prefix + "2:renewal_notice";
        psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1)
                .withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(first)).willReturn(aResponse().withStatus(422)));
        enqueue(notice(prefix + "1", subscription));
        enqueue(notice(prefix + "2", subscription));
        for (int i = 0; i < MAX_ATTEMPTS + 2; i++) {
            relay.runOnce();
            makeDue();
        }
        long id = idOf(first);
        assertThat(row(id)).containsEntry("state", "dead");
        assertThat(row(id).get("dead_at")).isNotNull();
        assertThat(sentKeys()).containsOnly(first); // the sink refuses it for ever; the second waits behind it
        assertThat(row(idOf(second))).containsEntry("state", "pending").containsEntry("attempts", 0);

        Http.Response discarded = admin().post("/api/admin/outbox/" + id + "/discard",
                "{\"reason\":\"the shop's sink refuses this payload; notice sent by hand\"}");
        assertThat(discarded.status()).isEqualTo(200);
        assertThat(discarded.json().path("state").asString()).isEqualTo("discarded");
        assertThat(discarded.json().path("discardedBy").asString()).isEqualTo("anna");
        assertThat(discarded.json().path("discardReason").asString()).startsWith("the shop's sink refuses");
        assertThat(discarded.json().path("discardedAt").isNull()).isFalse();

        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(sentKeys()).containsExactly(first, first, first, second);
        assertThat(row(idOf(second))).containsEntry("state", "delivered");
        assertThat(row(id)).containsEntry("state", "discarded").containsEntry("discarded_by", "anna");

        List<JsonNode> listed = admin().get("/api/admin/outbox?state=discarded&afterId=" + (id - 1) + "&limit=1")
                .json().valueStream().toList();
        assertThat(listed).singleElement().satisfies(r -> assertThat(r.path("id").asLong()).isEqualTo(id));
        JsonNode audit = admin().get("/api/admin/actions?target=outbox:" + id).json();
        assertThat(audit.size()).isEqualTo(1);
        assertThat(audit.get(0).path("action").asString()).isEqualTo("discard");
        assertThat(audit.get(0).path("actor").asString()).isEqualTo("anna");
        assertThat(audit.get(0).path("reason").asString()).startsWith("the shop's sink refuses");
    }

    @Test
    void discardAnswers401404400And409() {
        enqueue(notice(prefix + "1", "sub_" + prefix));
        long id = idOf(prefix + "1:renewal_notice");
        String path = "/api/admin/outbox/" + id + "/discard";
        String body = "{\"reason\":\"given up\"}";

        assertThat(http().post(path, body).status()).isEqualTo(401);
        assertThat(http().bearer("test-shop-key").post(path, body).status()).isEqualTo(403);
        assertThat(admin().post("/api/admin/outbox/999999999999/discard", body).problemSlug()).isEqualTo("not-found");
        assertThat(admin().post("/api/admin/outbox/abc/discard", body).status()).isEqualTo(404);

        Http.Response pending = admin().post(path, body);
        assertThat(pending.status()).isEqualTo(409);
        assertThat(pending.problemSlug()).isEqualTo("outbox-row-not-dead");
        assertThat(row(id)).containsEntry("state", "pending");

        jdbc.sql("UPDATE outbox SET state = 'dead', attempts = 10, dead_at = now() WHERE id = :id")
                .param("id", id).update();
        assertThat(admin().post(path, "{}").problemSlug()).isEqualTo("validation-failed");
        assertThat(admin().post(path, "{\"reason\":\"  \"}").problemSlug()).isEqualTo("validation-failed");
        assertThat(admin().post(path, (String) null).status()).isEqualTo(400);
        assertThat(row(id)).containsEntry("state", "dead");

        assertThat(admin().post(path, body).status()).isEqualTo(200);
        Http.Response again = admin().post(path, body);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.problemSlug()).isEqualTo("outbox-row-not-dead");
        assertThat(admin().post("/api/admin/outbox/" + id + "/redrive", "").status()).isEqualTo(409);
    }

    @Test
    @DisplayName("a bulk redrive by sink, kind and deadSince re-drives exactly the matching dead effects")
    void bulkRedriveTakesExactlyTheMatchingDeadEffects() {
        // dead_at in the future (from this test's clock T): no other test's dead row is "dead since T"
        enqueue(notice(prefix + "n1", "sub_1" + prefix), notice(prefix + "n2", "sub_2" + prefix),
                notice(prefix + "n3", "sub_3" + prefix), notice(prefix + "n4", "sub_4" + prefix),
                conversion(prefix + "c1"), orderPaid(prefix + "p1"), notice(prefix + "n5", "sub_5" + prefix));
        dead("n1:renewal_notice", "dead_at = now() + interval '10 days'");
        dead("n2:renewal_notice", "dead_at = now() + interval '12 days'");
        dead("n3:renewal_notice", "dead_at = now() + interval '8 days'"); // dead before T
        // parked by code older than V324: no dead_at, dead since its last scheduled attempt
        dead("n4:renewal_notice", "dead_at = NULL, next_attempt_at = now() + interval '11 days'");
        dead("c1:conversion", "dead_at = now() + interval '10 days'");
        dead("p1:order_paid", "dead_at = now() + interval '10 days'");
        String since = jdbc.sql("SELECT to_char((now() + interval '9 days') AT TIME ZONE 'UTC', "
                + "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')").query(String.class).single();

        assertThat(redrive("{\"sink\":\"notify\",\"deadSince\":\"" + since + "\"}")).isEqualTo(3);
        assertThat(stateOf("n1:renewal_notice")).isEqualTo("pending");
        assertThat(stateOf("n2:renewal_notice")).isEqualTo("pending");
        assertThat(stateOf("n4:renewal_notice")).isEqualTo("pending");
        assertThat(stateOf("n3:renewal_notice")).isEqualTo("dead");
        assertThat(stateOf("c1:conversion")).isEqualTo("dead");
        assertThat(stateOf("p1:order_paid")).isEqualTo("dead");
        assertThat(stateOf("n5:renewal_notice")).isEqualTo("pending"); // never dead, untouched
        assertThat(row(idOf(prefix + "n1:renewal_notice"))).containsEntry("attempts", 0).containsEntry("dead_at", null);

        assertThat(redrive("{\"sink\":\"fulfilment\",\"kind\":\"conversion\",\"deadSince\":\"" + since + "\"}"))
                .isZero();
        assertThat(redrive("{\"kind\":\"conversion\",\"deadSince\":\"" + since + "\"}")).isEqualTo(1);
        assertThat(stateOf("c1:conversion")).isEqualTo("pending");
        assertThat(stateOf("p1:order_paid")).isEqualTo("dead");
        assertThat(redrive("{\"sink\":\"fulfilment\",\"deadSince\":\"" + since.replace("Z", "+00:00") + "\"}"))
                .isEqualTo(1);
        assertThat(stateOf("p1:order_paid")).isEqualTo("pending");
        assertThat(stateOf("n3:renewal_notice")).isEqualTo("dead");

        long deadNow = jdbc.sql("SELECT count(*) FROM outbox WHERE state = 'dead'").query(Long.class).single();
        assertThat(redrive("")).isEqualTo(deadNow); // no filter: every dead effect
        assertThat(stateOf("n3:renewal_notice")).isEqualTo("pending");

        JsonNode audit = admin().get("/api/admin/actions?target=outbox:dead").json();
        assertThat(audit.valueStream().map(a -> a.path("reason").asString()))
                .contains("sink=notify kind=any deadSince=" + since);
    }

    @Test
    void bulkRedriveRefusesBadFiltersWithA400() {
        for (String body : List.of("{\"sink\":\"email\"}", "{\"deadSince\":\"yesterday\"}",
                "{\"deadSince\":\"2026-01-01T00:00:00\"}", "{\"kind\":\"\"}", "{\"sink\":3}", "[1")) {
            Http.Response answer = admin().post("/api/admin/outbox/redrive", body);
            assertThat(answer.status()).as(body).isEqualTo(400);
        }
        assertThat(admin().post("/api/admin/outbox/redrive", "{\"sink\":\"email\"}").problemSlug())
                .isEqualTo("validation-failed");
        assertThat(http().bearer("test-shop-key").post("/api/admin/outbox/redrive", "{}").status()).isEqualTo(403);
        assertThat(http().post("/api/admin/outbox/redrive", "{}").status()).isEqualTo(401);
    }

    private long redrive(String body) {
        Http.Response answer = admin().post("/api/admin/outbox/redrive", body);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer.json().path("redriven").asLong();
    }

    private void dead(String key, String set) {
        int rows = jdbc.sql("UPDATE outbox SET state = 'dead', attempts = 10, " + set + " WHERE idempotency_key = :key")
                .param("key", prefix + key).update();
        assertThat(rows).isEqualTo(1);
    }

    private String stateOf(String key) {
        return (String) row(idOf(prefix + key)).get("state");
    }

    private static OutboxEntry conversion(String sourceId) {
        return new OutboxEntry("conversion", "subscription", "sub_c" + sourceId, sourceId,
                Map.of("event_id", sourceId, "event_name", "Purchase", "value", "9.99", "currency", "EUR",
                        "source", "webhook"));
    }

    private static OutboxEntry orderPaid(String sourceId) {
        return new OutboxEntry("order_paid", "order", "ord_" + sourceId, sourceId,
                Map.of("orderRef", "ord_" + sourceId, "pspPaymentId", "pay_1", "amount", "9.99", "currency", "EUR"));
    }

    private Http admin() {
        return http().bearer("test-anna-key");
    }
}
