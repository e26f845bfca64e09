package com.acme.payments.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * How sink acceptances are recorded. Found by the chaos run: the sink accepted an effect, then the connection writing its {@code sent}
 * record was terminated (pg_terminate_backend); the record was lost, the lease brought the row back and
 * the sink got the effect a second time. The record is fenced and conditional, so the relay now writes
 * it again on a fresh connection instead of giving up at the first dropped connection.
 */
class OutboxSentRecordIntegrationTests extends OutboxIntegrationTest {

    @AfterEach
    void dropTrigger() {
        jdbc.sql("DROP TRIGGER IF EXISTS chaos_kill_sent_record ON outbox_dedup").update();
        jdbc.sql("DROP FUNCTION IF EXISTS chaos_kill_sent_record()").update();
        jdbc.sql("DROP SEQUENCE IF EXISTS chaos_kill_sent_record_seq").update();
    }

    @Test
    @DisplayName("a connection terminated while recording a sink acceptance does not make the effect go out twice")
    void droppedConnectionWhileRecordingSentDoesNotResend() {
        // The first 'sent' write for this test's keys terminates its own connection, mid-transaction.
        jdbc.sql("CREATE SEQUENCE chaos_kill_sent_record_seq").update();
        jdbc.sql("""
                CREATE FUNCTION chaos_kill_sent_record() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF NEW.state = 'sent' AND NEW.idempotency_key LIKE '%s%%'
                     AND nextval('chaos_kill_sent_record_seq') = 1 THEN
                    PERFORM pg_terminate_backend(pg_backend_pid());
                  END IF;
                  RETURN NEW;
                END $$""".formatted(prefix)).update();
        jdbc.sql("""
                CREATE TRIGGER chaos_kill_sent_record BEFORE UPDATE ON outbox_dedup
                   FOR EACH ROW EXECUTE FUNCTION chaos_kill_sent_record()""").update();
        enqueue(notice(prefix + "1", "sub_" + prefix));

        relay.runUntilIdle(Duration.ofSeconds(10));
        // whatever is still leased comes back at once, as it would after the lease
        jdbc.sql("""
                UPDATE outbox SET lease_until = now() - interval '1 second', next_attempt_at = now()
                 WHERE idempotency_key LIKE :p AND state = 'pending'""").param("p", prefix + "%").update();
        jdbc.sql("UPDATE outbox_dedup SET lease_until = now() - interval '1 second' WHERE idempotency_key LIKE :p")
                .param("p", prefix + "%").update();
        relay.runUntilIdle(Duration.ofSeconds(10));

        assertThat(jdbc.sql("SELECT last_value FROM chaos_kill_sent_record_seq").query(Long.class).single())
                .as("the trigger terminated a connection").isPositive();
        assertThat(sentKeys()).containsExactly(prefix + "1:renewal_notice");
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 1L));
    }

    /**
     * A batch's acceptances go in one write, but not only at the batch's end: while one call
     * is still under way, the 2xx that came in meanwhile are recorded every {@code record-within} (the
     * resend window stays bounded, docs/outbox.md).
     */
    @Test
    @DisplayName("while one call of the batch is still under way, the batch's other acceptances are already recorded")
    void acceptancesAreRecordedWhileASlowCallOfTheBatchRuns() throws Exception {
        String slowKey = prefix + "slow:renewal_notice";
        psp.stubFor(post(urlPathMatching("/sinks/notify")).atPriority(1)
                .withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(slowKey))
                .willReturn(aResponse().withStatus(200).withFixedDelay(6000)));
        relay.runUntilIdle(Duration.ofSeconds(10)); // others' leftovers first: the batch below is ours
        enqueue(notice(prefix + "slow", "sub_" + prefix + "slow"), notice(prefix + "1", "sub_" + prefix + "1"),
                notice(prefix + "2", "sub_" + prefix + "2"));

        CompletableFuture<Integer> turn = CompletableFuture.supplyAsync(relay::runOnce);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> statesOfMyRows().getOrDefault("delivered", 0L) == 2L);
        assertThat(turn).as("the slow call is still under way").isNotDone();
        assertThat(row(idOf(slowKey))).containsEntry("state", "pending");

        assertThat(turn.get(20, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 3L));
    }
}
