package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.acme.payments.support.TestDatabase;

/** Leases: rows another relay holds are skipped, rows of a dead relay come back, a stale holder is fenced. */
class OutboxLeaseIntegrationTests extends OutboxIntegrationTest {

    @Autowired
    private OutboxStore store;
    @Autowired
    private SinkRoutes routes;

    @Test
    void relayBSkipsTheRowsRelayAHoldsLocked() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            enqueue(notice(prefix + i, "sub_" + prefix + i));
            keys.add(prefix + i + ":renewal_notice");
        }
        List<String> held = keys.subList(0, 3);
        try (Connection relayA = TestDatabase.connect()) {
            relayA.setAutoCommit(false);
            try (PreparedStatement lock = relayA.prepareStatement(
                    "SELECT id FROM outbox WHERE idempotency_key = ANY (?) FOR UPDATE")) {
                lock.setArray(1, relayA.createArrayOf("text", held.toArray()));
                lock.executeQuery().close();
            }
            // Relay B must neither wait for A's locks nor take A's rows.
            CompletableFuture.runAsync(() -> relay.runUntilIdle(Duration.ofSeconds(5))).get(10, TimeUnit.SECONDS);
            assertThat(sentKeys()).containsExactlyInAnyOrderElementsOf(keys.subList(3, 6));
            for (String key : held) {
                assertThat(row(idOf(key))).containsEntry("state", "pending").containsEntry("lease_version", 0L);
            }
            relayA.rollback();
        }
        relay.runUntilIdle(Duration.ofSeconds(5));
        assertThat(sentKeys()).containsExactlyInAnyOrderElementsOf(keys);
    }

    @Test
    void rowsOfARelayKilledMidBatchComeBackAfterTheLeaseAndAreSentOnce() {
        List<String> keys = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            enqueue(notice(prefix + i, "sub_" + prefix + i));
            keys.add(prefix + i + ":renewal_notice");
        }
        // The "killed" relay: claims (row leases and 'sending' keys committed), then never delivers.
        ClaimedBatch taken = store.claim("killed-relay", NO_SESSION, 1000, Duration.ofMillis(800), routes.routableKinds(),
                Duration.ofSeconds(1));
        assertThat(taken.toDeliver()).extracting(ClaimedEffect::idempotencyKey).containsAll(keys);
        assertThat(dedupStates()).containsOnly("sending").hasSize(20);

        relay.runOnce(); // inside the lease: nothing of ours moves
        assertThat(sentKeys()).isEmpty();

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            relay.runOnce();
            assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 20L));
        });
        assertThat(sentKeys()).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(dedupStates()).containsOnly("sent").hasSize(20);
    }

    /** A relay "killed" before these tests: no session holds its lock, so its expired keys are takeable. */
    private static final int NO_SESSION = -1;

    @Test
    void aHolderWhoseLeaseWasTakenOverCannotSettleTheRow() {
        String key = prefix + "1:renewal_notice";
        enqueue(notice(prefix + "1", "sub_" + prefix));
        ClaimedEffect stale = store.claim("slow-relay", NO_SESSION, 1000, Duration.ofMillis(300), routes.routableKinds(),
                Duration.ofSeconds(1)).toDeliver().stream()
                .filter(e -> e.idempotencyKey().equals(key)).findFirst().orElseThrow();

        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() ->
                store.claim("new-relay", NO_SESSION - 1, 1000, Duration.ofSeconds(60), routes.routableKinds(), Duration.ofSeconds(1))
                        .toDeliver().stream().anyMatch(e -> e.idempotencyKey().equals(key)));

        assertThat(store.markSent(stale)).isEmpty();
        assertThat(store.markFailed(stale, "HTTP 500", Duration.ofSeconds(1),
                new OutboxStore.GiveUp(MAX_ATTEMPTS, Duration.ofDays(3))))
                .isEqualTo(OutboxStore.Failure.LEASE_LOST);
        assertThat(store.release(stale)).isFalse();
        Map<String, Object> row = row(idOf(key));
        assertThat(row).containsEntry("state", "pending").containsEntry("lease_owner", "new-relay")
                .containsEntry("attempts", 0);
        assertThat(row.get("lease_version")).isEqualTo(stale.leaseVersion() + 1);
        assertThat(dedupStates()).containsExactly("sending");
    }

    private List<String> dedupStates() {
        return jdbc.sql("SELECT state FROM outbox_dedup WHERE idempotency_key LIKE :prefix")
                .param("prefix", prefix + "%").query(String.class).list();
    }
}
