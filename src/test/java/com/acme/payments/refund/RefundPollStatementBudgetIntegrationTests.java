package com.acme.payments.refund;

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
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.StatementTrace;
import com.acme.payments.sweep.Polls;

/**
 * The refund straggler poll, counted like the sweeps' passes (RefundSweepStatementBudgetIntegrationTests):
 * the driver's Execute messages and COMMITs of one {@code Polls.run} (on the caller's thread), at two batch
 * sizes, for its two kinds of row in their usual state (a DONE refund the PSP still shows PENDING, an abandoned
 * refund the PSP still shows nothing for) and for a DONE refund the PSP now shows COMPLETED.
 */
class RefundPollStatementBudgetIntegrationTests extends IntegrationTest {

    /** The claim (one UPDATE … RETURNING with what each refund was sent against) and its COMMIT. */
    private static final long PER_BATCH = 2;
    private static final long COMMITS_PER_BATCH = 1;
    /**
     * Per DONE refund the PSP still shows PENDING: nothing (was 4, a transaction that wrote nothing:
     * the settle's UPDATE, the PSP state's UPDATE, the refund read, COMMIT).
     */
    private static final long PER_PENDING_REFUND = 0;
    /**
     * Per DONE refund the PSP now shows COMPLETED: one transaction (its PSP state's UPDATE, COMMIT). It
     * was 3, an UPDATE of an open refund first, which never matches a refund read DONE.
     */
    private static final long PER_COMPLETED_REFUND = 2;
    private static final long COMMITS_PER_COMPLETED_REFUND = 1;
    /**
     * Per abandoned refund the PSP shows nothing: nothing (was 2, the read of what it was sent
     * against in a read-only transaction of its own).
     */
    private static final long PER_ABANDONED_REFUND = 0;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    Polls polls;

    /** A PAID order of 30.00 EUR with 12.00 reserved for refunds: its id. */
    long paidOrder(String ref) {
        return jdbc.sql("""
                INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash, paid_amount,
                                    paid_currency, refunded_amount, psp_payment_id)
                VALUES (:ref, 'PAID', 30.00, 'EUR', 'c', sha256(convert_to(:ref, 'UTF8')), 30.00, 'EUR', 12.00,
                        'pay-' || :ref) RETURNING id""").param("ref", ref).query(Long.class).single();
    }

    /** N refunds as {@code seed} leaves them (given the order id and the reference), then one poll. */
    StatementTrace pollOf(int n, String batch, RowSeed seed) {
        psp.stubFor(findCall().willReturn(nothingFound()));
        polls.run("refund-straggler-poll"); // leases other tests' leftovers, so the poll below claims ours only
        String prefix = "rfd_poll_" + batch + System.nanoTime() + "_";
        List<String> refs = IntStream.rangeClosed(1, n).mapToObj(i -> {
            String ref = prefix + i;
            seed.insert(paidOrder("o_" + ref), ref);
            return ref;
        }).toList();

        StatementTrace trace = tracedPass(() -> polls.run("refund-straggler-poll"));

        assertThat(jdbc.sql("""
                SELECT count(*) FROM psp_refund_attempt WHERE reference_id IN (:refs)
                   AND last_polled_at > now() - interval '1 minute'""").param("refs", refs).query(Long.class).single())
                .as("refunds asked about by the poll").isEqualTo(n);
        return trace;
    }

    interface RowSeed {
        void insert(long orderId, String reference);
    }

    /** DONE an hour ago, PENDING at the PSP then, {@code now} at the PSP now. */
    void doneRefund(long orderId, String ref, String now) {
        jdbc.sql("""
                INSERT INTO psp_refund_attempt (order_id, refund_key, reference_id, amount, currency, state,
                                                psp_payment_id, psp_state, requested_by, updated_at)
                VALUES (:o, 'k', :ref, 12.00, 'EUR', 'DONE', 'rf-' || :ref, 'PENDING', 'admin',
                        now() - interval '1 hour')""").param("o", orderId).param("ref", ref).update();
        psp.stubFor(getCall("rf-" + ref).willReturn(okJson(envelope(payment("rf-" + ref, ref, "REFUND", now,
                "12.00", "EUR")))));
    }

    void pendingRefund(long orderId, String ref) {
        doneRefund(orderId, ref, "PENDING");
    }

    void completedRefund(long orderId, String ref) {
        doneRefund(orderId, ref, "COMPLETED");
    }

    /**
     * Abandoned an hour ago (its reservation released), never asked about since: seeded as the abandon
     * writes it, the refund's move to FAILED and the order's release in one transaction (the database lets
     * an order's refunded_amount fall only by what its refunds moved to FAILED in that transaction).
     */
    void abandonedRefund(long orderId, String ref) {
        transactions.executeWithoutResult(status -> {
            jdbc.sql("""
                    INSERT INTO psp_refund_attempt (order_id, refund_key, reference_id, amount, currency, state,
                                                    requested_by)
                    VALUES (:o, 'k', :ref, 12.00, 'EUR', 'UNKNOWN', 'admin')""").param("o", orderId).param("ref", ref)
                    .update();
            jdbc.sql("""
                    UPDATE psp_refund_attempt SET state = 'FAILED', error_code = 'abandoned', abandoned_by = 'admin',
                           abandoned_at = now() - interval '1 hour', updated_at = now() - interval '1 hour'
                     WHERE reference_id = :ref""").param("ref", ref).update();
            jdbc.sql("UPDATE orders SET refunded_amount = 0 WHERE id = :o").param("o", orderId).update();
        });
    }

    @Test
    @DisplayName("a refund poll of N refunds the PSP still shows PENDING: the claim, nothing per refund")
    void pendingRefundsBudget() {
        StatementTrace ten = pollOf(10, "a", this::pendingRefund);
        StatementTrace twenty = pollOf(20, "b", this::pendingRefund);

        assertThat(ten.statements()).as("statements of a 10-refund poll: %s", ten.queries())
                .isEqualTo(PER_BATCH + PER_PENDING_REFUND * 10);
        assertThat(ten.commits()).as("commits of a 10-refund poll: %s", ten.queries()).isEqualTo(COMMITS_PER_BATCH);
        assertThat(twenty.statements()).as("statements of a 20-refund poll: %s", twenty.queries())
                .isEqualTo(PER_BATCH + PER_PENDING_REFUND * 20);
        assertThat(twenty.commits()).as("commits of a 20-refund poll: %s", twenty.queries()).isEqualTo(COMMITS_PER_BATCH);
        assertThat(jdbc.sql("SELECT count(*) FROM psp_refund_attempt WHERE reference_id LIKE 'rfd_poll_%' AND state = 'DONE'"
                + " AND psp_state = 'PENDING'").query(Long.class).single()).as("still DONE, PENDING").isGreaterThanOrEqualTo(30);
    }

    @Test
    @DisplayName("a refund poll of N refunds the PSP now shows COMPLETED: the claim, then per refund one transaction")
    void completedRefundsBudget() {
        StatementTrace ten = pollOf(10, "e", this::completedRefund);
        StatementTrace twenty = pollOf(20, "f", this::completedRefund);

        assertThat(ten.statements()).as("statements of a 10-refund poll: %s", ten.queries())
                .isEqualTo(PER_BATCH + PER_COMPLETED_REFUND * 10);
        assertThat(ten.commits()).as("commits of a 10-refund poll: %s", ten.queries())
                .isEqualTo(COMMITS_PER_BATCH + COMMITS_PER_COMPLETED_REFUND * 10);
        assertThat(twenty.statements()).as("statements of a 20-refund poll: %s", twenty.queries())
                .isEqualTo(PER_BATCH + PER_COMPLETED_REFUND * 20);
        assertThat(twenty.commits()).as("commits of a 20-refund poll: %s", twenty.queries())
                .isEqualTo(COMMITS_PER_BATCH + COMMITS_PER_COMPLETED_REFUND * 20);
        assertThat(jdbc.sql("SELECT count(*) FROM psp_refund_attempt WHERE reference_id LIKE 'rfd_poll_e%' AND state = 'DONE'"
                + " AND psp_state = 'COMPLETED'").query(Long.class).single()).as("DONE, COMPLETED").isEqualTo(10);
    }

    @Test
    @DisplayName("a refund poll of N abandoned refunds the PSP shows nothing for: the claim, nothing per refund")
    void abandonedRefundsBudget() {
        StatementTrace ten = pollOf(10, "c", this::abandonedRefund);
        StatementTrace twenty = pollOf(20, "d", this::abandonedRefund);

        assertThat(ten.statements()).as("statements of a 10-refund poll: %s", ten.queries())
                .isEqualTo(PER_BATCH + PER_ABANDONED_REFUND * 10);
        assertThat(ten.commits()).as("commits of a 10-refund poll: %s", ten.queries()).isEqualTo(COMMITS_PER_BATCH);
        assertThat(twenty.statements()).as("statements of a 20-refund poll: %s", twenty.queries())
                .isEqualTo(PER_BATCH + PER_ABANDONED_REFUND * 20);
        assertThat(twenty.commits()).as("commits of a 20-refund poll: %s", twenty.queries()).isEqualTo(COMMITS_PER_BATCH);
    }
}
