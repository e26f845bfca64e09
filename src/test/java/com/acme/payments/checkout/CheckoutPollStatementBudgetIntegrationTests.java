package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.StatementTrace.tracedPass;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.StatementTrace;
import com.acme.payments.sweep.Polls;

/**
 * The checkout feature's two polls, counted like the sweeps' passes (StatementBudgetIntegrationTests): the
 * driver's Execute messages and committed transactions (autocommit statements included) of one {@code Polls.run} (a poll resolves its batch on the caller's
 * thread), at two batch sizes, so the part per batch and the part per row are both budgets.
 */
class CheckoutPollStatementBudgetIntegrationTests extends IntegrationTest {

    /** The straggler claim (one UPDATE … RETURNING, its COMMIT) and the batch's latest attempts (one read). */
    private static final long STRAGGLER_PER_BATCH = 3;
    /** The claim's transaction and the read's own (autocommit): 2, when only COMMIT statements were counted 1. */
    private static final long STRAGGLER_COMMITS_PER_BATCH = 2;
    /**
     * Per straggler the PSP shows COMPLETED: one transaction (attempt promote, order PAID, order_paid row,
     * COMMIT). Was 7, the order read before the ask and again after it, and the order's latest
     * attempt read on its own; the claim now returns the order and one read per batch its latest attempt, and
     * whether the order moved is the apply's answer.
     */
    private static final long STRAGGLER_PER_ROW = 4;
    private static final long STRAGGLER_COMMITS_PER_ROW = 1;
    /**
     * Per straggler the PSP still shows PENDING (an order that stays PROCESSING, asked about every grace period):
     * nothing. Was 6, the three reads above and a transaction that wrote nothing new (the READY
     * attempt's promote, the order's move from AWAITING_PAYMENT matching no row, COMMIT).
     */
    private static final long STRAGGLER_PER_PENDING_ROW = 0;

    /** The abandoned-attempt watch's claim (one UPDATE … RETURNING with its order's part, its COMMIT). */
    private static final long WATCH_PER_BATCH = 2;
    private static final long WATCH_COMMITS_PER_BATCH = 1;
    /** Per abandoned attempt the PSP shows nothing: no statement (was 1, the order read for the ask). */
    private static final long WATCH_PER_ROW = 0;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    /**
     * N orders PROCESSING past the grace with a READY attempt (the redirect the PSP gave stored), the PSP showing
     * each payment {@code state}.
     */
    StatementTrace stragglerPass(int n, String batch, String state, String status) {
        // other tests' stragglers: their payments are unknown to the stub (404, nothing applied)
        polls.run("straggler-poll"); // leases other tests' leftovers, so the pass below claims ours only
        String prefix = "strag_budget_" + batch + System.nanoTime() + "_";
        List<Long> ids = IntStream.rangeClosed(1, n).mapToObj(i -> {
            String ref = prefix + i;
            String paymentId = "pay-" + ref;
            long orderId = jdbc.sql("""
                    INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash,
                                        psp_payment_id, updated_at)
                    VALUES (:ref, 'PROCESSING', 5.00, 'EUR', 'c', sha256(convert_to(:ref, 'UTF8')), :p,
                            now() - interval '1 hour') RETURNING id""").param("ref", ref).param("p", paymentId)
                    .query(Long.class).single();
            jdbc.sql("""
                    INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_payment_id,
                                             redirect_url)
                    VALUES (:o, :ref, 'READY', 5.00, 'EUR', 'https://shop.test/r', :p, 'https://psp.test/hosted/' || :p)""")
                    .param("o", orderId)
                    .param("ref", "chk_" + ref).param("p", paymentId).update();
            psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, "chk_" + ref, "DEPOSIT",
                    state, "5.00", "EUR")))));
            return orderId;
        }).toList();

        StatementTrace trace = tracedPass(() -> polls.run("straggler-poll"));

        assertThat(jdbc.sql("SELECT count(*) FROM orders WHERE id IN (:ids) AND status = :s AND last_polled_at IS NOT NULL")
                .param("ids", ids).param("s", status).query(Long.class).single()).as("orders %s after the poll", status)
                .isEqualTo(n);
        return trace;
    }

    @Test
    @DisplayName("a straggler poll of N orders the PSP shows paid: the claim and one read, then per order one transaction")
    void stragglerPollBudget() {
        StatementTrace ten = stragglerPass(10, "a", "COMPLETED", "PAID");
        StatementTrace twenty = stragglerPass(20, "b", "COMPLETED", "PAID");

        assertThat(ten.statements()).as("statements of a 10-order poll: %s", ten.queries())
                .isEqualTo(STRAGGLER_PER_BATCH + STRAGGLER_PER_ROW * 10);
        assertThat(ten.commits()).as("commits of a 10-order poll: %s", ten.queries())
                .isEqualTo(STRAGGLER_COMMITS_PER_BATCH + STRAGGLER_COMMITS_PER_ROW * 10);
        assertThat(twenty.statements()).as("statements of a 20-order poll: %s", twenty.queries())
                .isEqualTo(STRAGGLER_PER_BATCH + STRAGGLER_PER_ROW * 20);
        assertThat(twenty.commits()).as("commits of a 20-order poll: %s", twenty.queries())
                .isEqualTo(STRAGGLER_COMMITS_PER_BATCH + STRAGGLER_COMMITS_PER_ROW * 20);
    }

    @Test
    @DisplayName("a straggler poll of N orders the PSP still shows PENDING: the claim and one read, nothing per order")
    void pendingStragglerPollBudget() {
        StatementTrace ten = stragglerPass(10, "c", "PENDING", "PROCESSING");
        StatementTrace twenty = stragglerPass(20, "d", "PENDING", "PROCESSING");

        assertThat(ten.statements()).as("statements of a 10-order poll: %s", ten.queries())
                .isEqualTo(STRAGGLER_PER_BATCH + STRAGGLER_PER_PENDING_ROW * 10);
        assertThat(ten.commits()).as("commits of a 10-order poll: %s", ten.queries()).isEqualTo(STRAGGLER_COMMITS_PER_BATCH);
        assertThat(twenty.statements()).as("statements of a 20-order poll: %s", twenty.queries())
                .isEqualTo(STRAGGLER_PER_BATCH + STRAGGLER_PER_PENDING_ROW * 20);
        assertThat(twenty.commits()).as("commits of a 20-order poll: %s", twenty.queries())
                .isEqualTo(STRAGGLER_COMMITS_PER_BATCH);
    }

    /** N attempts abandoned an hour ago, never asked about since; the PSP shows nothing for any of them. */
    StatementTrace watchPass(int n, String batch) {
        psp.stubFor(findCall().willReturn(nothingFound()));
        polls.run("abandoned-watch"); // leases other tests' leftovers
        String prefix = "watch_budget_" + batch + System.nanoTime() + "_";
        List<String> refs = IntStream.rangeClosed(1, n).mapToObj(i -> {
            String ref = prefix + i;
            long orderId = jdbc.sql("""
                    INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash)
                    VALUES (:ref, 'AWAITING_PAYMENT', 5.00, 'EUR', 'c', sha256(convert_to(:ref, 'UTF8'))) RETURNING id""")
                    .param("ref", ref).query(Long.class).single();
            jdbc.sql("""
                    INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, failure_reason,
                                             error_code, abandoned_at, abandoned_by, updated_at)
                    VALUES (:o, :ref, 'FAILED', 5.00, 'EUR', 'https://shop.test/r', 'abandoned', 'abandoned',
                            now() - interval '1 hour', 'admin', now() - interval '1 hour')""").param("o", orderId)
                    .param("ref", "chk_" + ref).update();
            return "chk_" + ref;
        }).toList();

        StatementTrace trace = tracedPass(() -> polls.run("abandoned-watch"));

        assertThat(jdbc.sql("SELECT count(*) FROM psp_attempt WHERE reference_id IN (:refs) AND last_polled_at IS NOT NULL")
                .param("refs", refs).query(Long.class).single()).as("attempts asked about by the watch").isEqualTo(n);
        return trace;
    }

    @Test
    @DisplayName("an abandoned-attempt watch of N attempts the PSP shows nothing for: the claim, nothing per attempt")
    void abandonedWatchBudget() {
        StatementTrace ten = watchPass(10, "a");
        StatementTrace twenty = watchPass(20, "b");

        assertThat(ten.statements()).as("statements of a 10-attempt watch: %s", ten.queries())
                .isEqualTo(WATCH_PER_BATCH + WATCH_PER_ROW * 10);
        assertThat(ten.commits()).as("commits of a 10-attempt watch: %s", ten.queries()).isEqualTo(WATCH_COMMITS_PER_BATCH);
        assertThat(twenty.statements()).as("statements of a 20-attempt watch: %s", twenty.queries())
                .isEqualTo(WATCH_PER_BATCH + WATCH_PER_ROW * 20);
        assertThat(twenty.commits()).as("commits of a 20-attempt watch: %s", twenty.queries())
                .isEqualTo(WATCH_COMMITS_PER_BATCH);
    }
}
