package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code payments.outbox.oldest.pending.age{sink}}: each sink's own oldest row, so one slow sink shows. */
class OutboxMetricsTests {

    @Test
    @DisplayName("the oldest pending row is read per sink: the kinds of a sink together, a kind no sink knows as unknown")
    void theOldestPendingRowIsPerSink() {
        OutboxStatsStore.Stats stats = new OutboxStatsStore.Stats(4, 0, 0, 0, 0, Map.of(
                "order_paid", 900.0, "renewal_notice", 30.0, "refund_failed", 120.0, "from_a_newer_release", 7.0));
        assertThat(OutboxMetrics.oldestPending(stats, "fulfilment")).isEqualTo(900.0);
        assertThat(OutboxMetrics.oldestPending(stats, "notify")).as("the older of two notify kinds").isEqualTo(120.0);
        assertThat(OutboxMetrics.oldestPending(stats, "conversion")).as("none pending").isZero();
        assertThat(OutboxMetrics.oldestPending(stats, OutboxMetrics.UNKNOWN_SINK)).isEqualTo(7.0);
    }
}
