package com.acme.payments.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A stopping instance finishes the calls under way and hands back the rows it has not sent; a stopped
 * relay started again delivers again.
 */
class OutboxShutdownIntegrationTests extends OutboxIntegrationTest {

    /**
     * The test framework pauses a cached context whenever a test switches to another one (Spring 7:
     * {@code pause()}, later {@code restart()}: the relay's stop, then its start). A relay that stayed
     * "stopping" after its start claimed nothing, and left the outbox tests running after a test with a
     * context of its own failing.
     */
    @Test
    void aRelayStoppedAndStartedAgainDelivers() {
        ConfigurableApplicationContext instance = OutboxTwoRelaysIntegrationTests.startInstance();
        try {
            OutboxRelay restarted = instance.getBean(OutboxRelay.class);
            restarted.runUntilIdle(Duration.ofSeconds(10)); // its session held, others' leftovers delivered
            instance.pause();
            instance.restart();
            enqueue(notice(prefix + "1", "sub_" + prefix + "1"), notice(prefix + "2", "sub_" + prefix + "2"));
            assertThat(restarted.runUntilIdle(Duration.ofSeconds(10))).isGreaterThanOrEqualTo(2);
            assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 2L));
            assertThat(sentKeys()).containsExactlyInAnyOrder(prefix + "1:renewal_notice", prefix + "2:renewal_notice");
        } finally {
            instance.close();
        }
    }

    @Test
    void aStoppingRelayFinishesOrHandsBackItsBatchAndNothingIsLostOrSentTwice() throws Exception {
        psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1)
                .withHeader(SinkClient.IDEMPOTENCY_KEY, matching(java.util.regex.Pattern.quote(prefix) + ".*"))
                .willReturn(aResponse().withStatus(200).withFixedDelay(400)));
        List<String> keys = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            enqueue(notice(prefix + i, "sub_" + prefix + i));
            keys.add(prefix + i + ":renewal_notice");
        }
        ConfigurableApplicationContext stopping = OutboxTwoRelaysIntegrationTests.startInstance(
                "payments.outbox.concurrency=2");
        CompletableFuture<Integer> turn;
        try {
            OutboxRelay relayOfStopping = stopping.getBean(OutboxRelay.class);
            turn = CompletableFuture.supplyAsync(relayOfStopping::runOnce);
            await().atMost(Duration.ofSeconds(10)).until(() -> !sinkRequests().isEmpty());
        } finally {
            stopping.close(); // returns once the turn has finished or handed its rows back
        }
        turn.get(10, TimeUnit.SECONDS);

        long leased = jdbc.sql("SELECT count(*) FROM outbox WHERE idempotency_key LIKE :p AND lease_until IS NOT NULL")
                .param("p", prefix + "%").query(Long.class).single();
        assertThat(leased).isZero(); // nothing waits for a lease expiry
        Map<String, Long> states = statesOfMyRows();
        assertThat(states.get("delivered")).isBetween(1L, 11L);
        assertThat(states.get("pending")).isEqualTo(12L - states.get("delivered"));
        assertThat(sentKeys()).hasSize(states.get("delivered").intValue());

        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 12L));
        assertThat(sentKeys()).containsExactlyInAnyOrderElementsOf(keys);
    }
}
