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
 * claim of a batch of N pending rows, their deliveries to a sink answering 200, and the record of each
 * acceptance, counted from the driver's trace on the relay's thread and its senders
 * ({@link StatementTrace}: Execute messages, so the session's {@code isValid} check, an empty simple
 * query, is not among them). One sender ({@code concurrency=1}): group commit then writes every
 * acceptance alone, the light-load case and the most a batch can cost; with more senders acceptances
 * may share a write, so the count would depend on timing. The count grows with N: BENCHMARKS.md names
 * each statement.
 */
@TestPropertySource(properties = "payments.outbox.concurrency=1")
class OutboxRelayStatementBudgetIntegrationTests extends OutboxIntegrationTest {

    /** The claim's transaction, once per pass: lease the rows, take their keys, COMMIT. */
    private static final long PER_PASS = 3;
    /** The acceptance's fenced write (row delivered, key sent) and its COMMIT, per row. */
    private static final long PER_ROW = 2;
    private static final long COMMITS_PER_PASS = 1;
    private static final long COMMITS_PER_ROW = 1;

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
    @DisplayName("a relay pass of N rows: the claim (one commit), then one write and commit per row: 3 + 2N")
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
