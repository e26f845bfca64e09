package com.acme.payments.ledger;

import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.function.Consumer;

import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The ledger's one read, of tables it does not own ({@code orders}, {@code psp_attempt},
 * {@code psp_refund_attempt}, {@code duplicate_charge}): the money movements of a window in the order they
 * happened, streamed. A movement is dated by the column its move set (V390: {@code paid_at}, {@code done_at},
 * {@code failed_at}; a second charge's {@code detected_at}); a short window reads each from its index (V392 to
 * V394; second charges are few), a long one scans and sorts in the database (temporary files, not this JVM's
 * memory). PostgreSQL keeps a cursor open only inside a transaction (autocommit off) and with a fetch size;
 * then the driver holds one batch of rows at a time, never the whole result.
 */
@Repository
@Transactional(readOnly = true)
class LedgerStore {

    /** Rows the driver fetches at a time: the memory the export holds, whatever the window. */
    static final int FETCH_SIZE = 1000;

    /**
     * For this transaction only. A long window's estimate (an attempt look-up per payment) sets off PostgreSQL's
     * JIT compilation, which took 3.4 s of a 10 s year at 10^6 orders and gains nothing on index probes and a sort.
     */
    private static final String NO_JIT = "SET LOCAL jit = off";

    /**
     * Payments, second charges, refunds that were DONE, and those that failed after: in the window
     * {@code [from, to)}, ordered by when, then by kind (that order), then by the row's id. A payment's and a
     * second charge's reference is the attempt that made the payment (null when none did: a charge found only at
     * the PSP). A refund of a second charge is {@code duplicate_refund} whoever made it.
     */
    private static final String MOVEMENTS = """
            SELECT o.paid_at AS occurred_at, 1 AS kind_rank, 'payment' AS kind, o.id AS row_id, o.order_ref,
                   o.psp_payment_id,
                   (SELECT a.reference_id FROM psp_attempt a
                     WHERE a.psp_payment_id = o.psp_payment_id AND a.order_id = o.id
                     ORDER BY a.id DESC LIMIT 1) AS reference_id,
                   o.paid_amount AS amount, o.paid_currency AS currency
              FROM orders o
             WHERE o.paid_at >= :from AND o.paid_at < :to
            UNION ALL
            SELECT d.detected_at, 2, 'duplicate_charge', d.id, o.order_ref, d.psp_payment_id,
                   (SELECT a.reference_id FROM psp_attempt a
                     WHERE a.psp_payment_id = d.psp_payment_id AND a.order_id = d.order_id
                     ORDER BY a.id DESC LIMIT 1),
                   d.amount, d.currency
              FROM duplicate_charge d JOIN orders o ON o.id = d.order_id
             WHERE d.detected_at >= :from AND d.detected_at < :to
            UNION ALL
            SELECT r.done_at, 3,
                   CASE WHEN r.duplicate_charge_id IS NOT NULL THEN 'duplicate_refund'
                        WHEN r.origin = 'external' THEN 'external_refund' ELSE 'refund' END,
                   r.id, o.order_ref, r.psp_payment_id, r.reference_id, r.amount, r.currency
              FROM psp_refund_attempt r JOIN orders o ON o.id = r.order_id
             WHERE r.done_at >= :from AND r.done_at < :to
            UNION ALL
            SELECT r.failed_at, 4, 'refund_failed', r.id, o.order_ref, r.psp_payment_id, r.reference_id, r.amount,
                   r.currency
              FROM psp_refund_attempt r JOIN orders o ON o.id = r.order_id
             WHERE r.state = 'FAILED' AND r.done_at IS NOT NULL AND r.failed_at >= :from AND r.failed_at < :to
             ORDER BY occurred_at, kind_rank, row_id
            """;

    private final JdbcClient jdbc;

    LedgerStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Hands every movement of {@code [from, to)} to {@code sink} in order, one at a time, as it is read. */
    void stream(OffsetDateTime from, OffsetDateTime to, Consumer<Movement> sink) {
        jdbc.sql(NO_JIT).update();
        jdbc.sql(MOVEMENTS).withFetchSize(FETCH_SIZE)
                .param("from", from.withOffsetSameInstant(ZoneOffset.UTC), Types.TIMESTAMP_WITH_TIMEZONE)
                .param("to", to.withOffsetSameInstant(ZoneOffset.UTC), Types.TIMESTAMP_WITH_TIMEZONE)
                .query((RowCallbackHandler) rs -> sink.accept(new Movement(
                        rs.getObject("occurred_at", OffsetDateTime.class).toInstant(),
                        Movement.Kind.of(rs.getString("kind")), rs.getString("order_ref"),
                        rs.getString("psp_payment_id"), rs.getString("reference_id"), rs.getBigDecimal("amount"),
                        rs.getString("currency"))));
    }
}
