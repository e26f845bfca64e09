package com.acme.payments.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import com.github.tomakehurst.wiremock.stubbing.StubMapping;

/**
 * "Retried for days, not minutes": a failing delivery is retried with a pause doubling from
 * {@code backoff} up to {@code max-backoff}, and parked dead only once it has failed for longer than
 * {@code retry-horizon} (counted from its first failed try), or at {@code max-attempts} when that is set.
 * Each test runs a relay of its own with short settings ({@link OwnRelay}); time moves by making rows due
 * and by moving a row's first failed try back, never by waiting.
 */
class OutboxRetryHorizonIntegrationTests extends OutboxIntegrationTest {

    /** Short settings; max-attempts left at its default. */
    private static final Map<String, String> SHORT = Map.of("payments.outbox.backoff", "100ms",
            "payments.outbox.max-backoff", "1s", "payments.outbox.retry-horizon", "2m");
    /** The attempts after which the relay gave up before the retry horizon (max-attempts 10). */
    private static final int OLD_GIVE_UP = 10;

    @Autowired
    private ApplicationContext context;

    private OutboxRelay own;

    @AfterEach
    void stopOwnRelay() {
        if (own != null) {
            own.stop();
        }
    }

    @Test
    @DisplayName("a receiver down for more than the old give-up (10 failures) gets every effect once back, "
            + "in order, none dead")
    void aReceiverDownForLongGetsEveryEffectInOrderOnceItIsBack() {
        own = OwnRelay.of(context, Clock.systemUTC(), SHORT);
        List<String> aggregates = List.of("a", "b", "c");
        for (int i = 1; i <= 3; i++) {
            for (String aggregate : aggregates) {
                enqueue(notice(prefix + aggregate + i, "sub_" + aggregate + "_" + prefix)); // one transaction each
            }
        }
        StubMapping down = receiverDown();

        for (int round = 0; round < OLD_GIVE_UP + 5; round++) {
            own.runOnce(); // one claim: the head of each stream, each failing once
            makeDue();
        }
        for (String aggregate : aggregates) {
            assertThat(row(idOf(prefix + aggregate + "1:renewal_notice")))
                    .containsEntry("state", "pending").containsEntry("attempts", OLD_GIVE_UP + 5)
                    .extractingByKey("first_failed_at").isNotNull();
        }
        assertThat(statesOfMyRows()).isEqualTo(Map.of("pending", 9L));
        assertThat(sentKeys()).as("only the heads of the streams were tried")
                .hasSize(3 * (OLD_GIVE_UP + 5)).allMatch(key -> key.matches(Pattern.quote(prefix) + "[abc]1:.*"));

        psp.removeStub(down);
        for (int round = 0; round < 5 && !statesOfMyRows().equals(Map.of("delivered", 9L)); round++) {
            makeDue();
            own.runUntilIdle(Duration.ofSeconds(10));
        }

        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 9L));
        for (String aggregate : aggregates) {
            assertThat(withoutRepeats(keysOf(prefix + aggregate))).containsExactly(
                    prefix + aggregate + "1:renewal_notice", prefix + aggregate + "2:renewal_notice",
                    prefix + aggregate + "3:renewal_notice");
            List<OffsetDateTime> deliveredInIdOrder = jdbc.sql(
                    "SELECT delivered_at FROM outbox WHERE aggregate_id = :a ORDER BY id")
                    .param("a", "sub_" + aggregate + "_" + prefix).query(OffsetDateTime.class).list();
            assertThat(deliveredInIdOrder).isSorted().doesNotHaveDuplicates();
        }
    }

    @Test
    @DisplayName("a receiver down past the retry horizon: the effect is dead and still holds back its stream")
    void aReceiverDownPastTheHorizonParksTheEffectDead() {
        own = OwnRelay.of(context, Clock.systemUTC(), SHORT);
        String first = prefix + "1:renewal_notice";
        enqueue(notice(prefix + "1", "sub_" + prefix));
        enqueue(notice(prefix + "2", "sub_" + prefix));
        receiverDown();
        for (int i = 0; i < 3; i++) {
            own.runOnce();
            makeDue();
        }
        long id = idOf(first);
        assertThat(row(id)).containsEntry("state", "pending").containsEntry("attempts", 3);

        // the receiver has now been failing for longer than the horizon (2 minutes) since the first failed try
        jdbc.sql("UPDATE outbox SET first_failed_at = first_failed_at - interval '3 minutes' WHERE id = :id")
                .param("id", id).update();
        own.runOnce();

        assertThat(row(id)).containsEntry("state", "dead").containsEntry("attempts", 4)
                .containsEntry("last_error", "HTTP 503").extractingByKey("dead_at").isNotNull();
        assertThat(row(idOf(prefix + "2:renewal_notice"))).containsEntry("state", "pending")
                .containsEntry("attempts", 0);
        makeDue();
        own.runUntilIdle(Duration.ofSeconds(10));
        assertThat(sentKeys()).as("the dead row holds back the one behind it").containsOnly(first).hasSize(4);

        // a redrive starts a fresh horizon: the next failure does not park it dead at once
        assertThat(http().bearer("test-admin-key").post("/api/admin/outbox/" + id + "/redrive", "").status())
                .isEqualTo(200);
        assertThat(row(id)).containsEntry("first_failed_at", null);
        own.runOnce();
        assertThat(row(id)).containsEntry("state", "pending").containsEntry("attempts", 1);
    }

    @Test
    @DisplayName("max-attempts set: dead after that many attempts, well inside the horizon")
    void maxAttemptsSetParksTheEffectDeadAfterThatMany() {
        Map<String, String> settings = new HashMap<>(SHORT);
        settings.put("payments.outbox.max-attempts", "12");
        own = OwnRelay.of(context, Clock.systemUTC(), settings);
        String key = prefix + "1:renewal_notice";
        enqueue(notice(prefix + "1", "sub_" + prefix));
        receiverDown();
        for (int i = 0; i < 11; i++) {
            own.runOnce();
            makeDue();
        }
        assertThat(row(idOf(key))).containsEntry("state", "pending").containsEntry("attempts", 11);

        own.runOnce();
        makeDue();
        own.runOnce();

        assertThat(row(idOf(key))).containsEntry("state", "dead").containsEntry("attempts", 12);
        assertThat(sentKeys()).hasSize(12).containsOnly(key);
    }

    /** The notify sink answers 503 to this test's keys until the returned stub is removed. */
    private StubMapping receiverDown() {
        return psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1)
                .withHeader(SinkClient.IDEMPOTENCY_KEY, matching(Pattern.quote(prefix) + ".*"))
                .willReturn(aResponse().withStatus(503)));
    }

    private List<String> keysOf(String start) {
        return sentKeys().stream().filter(k -> k.startsWith(start)).toList();
    }

    private static List<String> withoutRepeats(List<String> keys) {
        List<String> out = new ArrayList<>();
        for (String key : keys) {
            if (out.isEmpty() || !out.get(out.size() - 1).equals(key)) {
                out.add(key);
            }
        }
        return out;
    }
}
