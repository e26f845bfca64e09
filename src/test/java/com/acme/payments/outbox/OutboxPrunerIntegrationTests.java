package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.acme.payments.retention.Retentions;

/** Pruning removes delivered history and old dedup records, never an undelivered row. */
class OutboxPrunerIntegrationTests extends OutboxIntegrationTest {

    @Autowired
    private Retentions retentions;

    @Test
    void deliveredRowsAndDedupRecordsPastRetentionGoAndEverythingElseStays() {
        for (int i = 1; i <= 5; i++) {
            enqueue(notice(prefix + i, "sub_" + prefix + i));
        }
        // 1: delivered 8 days ago (retention 7d) -> pruned; 2: delivered yesterday -> kept;
        // 3: pending for 8 days -> kept; 4: dead for 8 days -> kept; 5: pending, new -> kept.
        age(1, "delivered", "8 days");
        age(2, "delivered", "1 day");
        age(3, "pending", "8 days");
        age(4, "dead", "8 days");
        jdbc.sql("""
                INSERT INTO outbox_dedup (idempotency_key, state, outbox_id, lease_version, claimed_at, sent_at)
                VALUES (:old, 'sent', 0, 1, now() - interval '31 days', now() - interval '31 days'),
                       (:recent, 'sent', 0, 1, now() - interval '29 days', now() - interval '29 days')
                """).param("old", prefix + "1:renewal_notice").param("recent", prefix + "2:renewal_notice").update();

        retentions.run(OutboxPruner.JOB);

        List<String> left = jdbc.sql("SELECT idempotency_key FROM outbox WHERE idempotency_key LIKE :p ORDER BY id")
                .param("p", prefix + "%").query(String.class).list();
        assertThat(left).containsExactly(prefix + "2:renewal_notice", prefix + "3:renewal_notice",
                prefix + "4:renewal_notice", prefix + "5:renewal_notice");
        List<String> keys = jdbc.sql("SELECT idempotency_key FROM outbox_dedup WHERE idempotency_key LIKE :p")
                .param("p", prefix + "%").query(String.class).list();
        assertThat(keys).containsExactly(prefix + "2:renewal_notice");
    }

    @Test
    void discardedRowsPastRetentionGoLikeDeliveredOnesAndNewerOnesStay() {
        for (int i = 1; i <= 3; i++) {
            enqueue(notice(prefix + i, "sub_" + prefix + i));
        }
        // 1: discarded 8 days ago (retention 7d) -> pruned; 2: discarded yesterday -> kept; 3: dead 8 days -> kept
        discard(1, "8 days");
        discard(2, "1 day");
        age(3, "dead", "8 days");

        retentions.run(OutboxPruner.JOB);

        List<String> left = jdbc.sql("SELECT idempotency_key FROM outbox WHERE idempotency_key LIKE :p ORDER BY id")
                .param("p", prefix + "%").query(String.class).list();
        assertThat(left).containsExactly(prefix + "2:renewal_notice", prefix + "3:renewal_notice");
    }

    private void discard(int n, String age) {
        jdbc.sql("""
                UPDATE outbox
                   SET state = 'discarded', created_at = now() - CAST(:age AS interval) - interval '1 day',
                       dead_at = now() - CAST(:age AS interval), discarded_at = now() - CAST(:age AS interval),
                       discarded_by = 'anna', discard_reason = 'test'
                 WHERE idempotency_key = :key
                """).param("age", age).param("key", prefix + n + ":renewal_notice").update();
    }

    private void age(int n, String state, String age) {
        jdbc.sql("""
                UPDATE outbox
                   SET state = :state, created_at = now() - CAST(:age AS interval),
                       delivered_at = CASE WHEN :state = 'delivered' THEN now() - CAST(:age AS interval) END,
                       settled_as = CASE WHEN :state = 'delivered' THEN 'sent' END
                 WHERE idempotency_key = :key
                """).param("state", state).param("age", age).param("key", prefix + n + ":renewal_notice").update();
    }
}
