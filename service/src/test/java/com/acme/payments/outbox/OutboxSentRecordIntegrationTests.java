package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Found by the chaos run: the sink accepted an effect, then the connection writing its {@code sent}
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
}
