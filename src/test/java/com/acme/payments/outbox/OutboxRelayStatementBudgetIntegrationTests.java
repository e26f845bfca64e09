package com.acme.payments.outbox;

import static com.acme.payments.support.StatementTrace.tracedPass;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.support.StatementTrace;

/**
 * The statement budget of one relay pass (StatementBudgetIntegrationTests counts the requests'): the
 * claim of a batch of N pending rows, their deliveries to a sink answering 200, and the record of the
 * acceptances, counted from the driver's trace on the relay's thread and its senders
 * ({@link StatementTrace}: Execute messages, so the session's {@code isValid} check, an empty simple
 * query, is not among them). The acceptances of a batch are written together once its calls have
 * answered, and meanwhile every {@code record-within}; a long {@code record-within} here makes the
 * count independent of how fast the sink answers on a loaded machine. Asserted at two batch sizes, so
 * the part per row is a budget too: it is zero. docs/benchmarks.md names each statement.
 * <p>
 * In a context of its own: that once left the outbox tests after it failing, because the test
 * framework pauses the shared context (the relay's stop and start) and the relay did not start again
 * (OutboxShutdownIntegrationTests.aRelayStoppedAndStartedAgainDelivers).
 */
@TestPropertySource(properties = "payments.outbox.record-within=1m")
class OutboxRelayStatementBudgetIntegrationTests extends OutboxIntegrationTest {

    /** The claim's transaction (lease the rows, take their keys, COMMIT), then the batch's acceptances. */
    private static final long PER_PASS = 4;
    /** Nothing per row: the acceptances share the batch's one statement. */
    private static final long PER_ROW = 0;
    /** The claim's COMMIT, and the acceptances' statement, which runs alone: its own transaction (autocommit). */
    private static final long COMMITS_PER_PASS = 2;
    private static final long COMMITS_PER_ROW = 0;

    StatementTrace pass(int rows, String batch) {
        relay.runUntilIdle(Duration.ofSeconds(10)); // other tests' leftovers, and the relay's session held
        enqueue(IntStream.rangeClosed(1, rows)
                .mapToObj(i -> notice(prefix + batch + i, "sub_" + prefix + batch + i)) // one aggregate each
                .toArray(OutboxEntry[]::new));
        int[] claimed = new int[1];
        StatementTrace trace = tracedPass(() -> claimed[0] = relay.runOnce(), "outbox-send-");
        assertThat(claimed[0]).as("rows claimed").isEqualTo(rows);
        return trace;
    }

    @Test
    @DisplayName("a relay pass of N rows: the claim (one commit), then one write of the batch's acceptances: 4")
    void relayPassBudget() {
        StatementTrace ten = pass(10, "a");
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 10L));
        StatementTrace twenty = pass(20, "b");
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 30L));
        assertThat(sentKeys()).hasSize(30);

        assertThat(ten.statements()).as("statements of a 10-row pass: %s", ten.queries())
                .isEqualTo(PER_PASS + PER_ROW * 10);
        assertThat(ten.commits()).as("commits of a 10-row pass: %s", ten.queries())
                .isEqualTo(COMMITS_PER_PASS + COMMITS_PER_ROW * 10);
        assertThat(twenty.statements()).as("statements of a 20-row pass: %s", twenty.queries())
                .isEqualTo(PER_PASS + PER_ROW * 20);
        assertThat(twenty.commits()).as("commits of a 20-row pass: %s", twenty.queries())
                .isEqualTo(COMMITS_PER_PASS + COMMITS_PER_ROW * 20);
    }
}
