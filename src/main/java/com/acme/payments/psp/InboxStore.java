package com.acme.payments.psp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.sweep.OpenRows;
import com.acme.payments.sweep.Rows;

import tools.jackson.databind.json.JsonMapper;

/**
 * Owns {@code psp_webhook_event}, the inbox. A receipt stays open ({@code processed_at} NULL) until
 * its state was applied or found already past; the replay job leases what stays open too long. A receipt
 * whose payment holds a value we cannot book carries the fault's kind in {@code fault}. A closed receipt is
 * deleted after {@code payments.retention.inbox-closed} ({@link InboxPruner}).
 */
@Repository
@Transactional
class InboxStore {

    /**
     * A row back means this delivery owns the receipt (new, or still open from an earlier delivery);
     * none means it was processed already: a duplicate.
     */
    private static final String UPSERT = """
            INSERT INTO psp_webhook_event (payment_id, state, payment_type, reference_id, payload, fault)
            VALUES (:paymentId, :state, :paymentType, :referenceId, CAST(:payload AS jsonb), :fault)
            ON CONFLICT (payment_id, state) DO UPDATE SET received_at = now()
             WHERE psp_webhook_event.processed_at IS NULL
            RETURNING id
            """;
    private static final String CLOSE = """
            UPDATE psp_webhook_event SET processed_at = now(), processed_reason = :reason
             WHERE id = :id AND processed_at IS NULL
            """;
    /**
     * The webhook's apply takes its receipt first, closing it as applied before anything else is written: the
     * receipt's row lock is then the first lock of every path that applies a receipt (the replay's and a Stripe
     * event's upsert lock it first too), so a webhook and a replay of one payment queue on the receipt instead of
     * deadlocking on it and the payment's rows. The apply then corrects the reason, or reopens the receipt, in
     * the same transaction; no one sees the provisional close.
     */
    private static final String TAKE = """
            UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'applied'
             WHERE id = :id AND processed_at IS NULL
            """;
    private static final String CORRECT_REASON = """
            UPDATE psp_webhook_event SET processed_reason = :reason WHERE id = :id AND processed_at IS NOT NULL
            """;
    private static final String REOPEN = """
            UPDATE psp_webhook_event SET processed_at = NULL, processed_reason = NULL
             WHERE id = :id AND processed_at IS NOT NULL
            """;
    /** Closes a stale receipt the replay job started from, keeping a verdict it already has. */
    private static final String SUPERSEDE = """
            UPDATE psp_webhook_event
               SET processed_at = coalesce(processed_at, now()),
                   processed_reason = coalesce(processed_reason, 'superseded')
             WHERE id = :id
            """;

    /**
     * The replay lease, in one statement: SKIP LOCKED keeps parallel replayers (other instances) off the
     * same rows; bumping received_at hides the rows from the next window; the version fences completion.
     * A receipt whose payment id is too long to be looked up is leased like any other (its {@code fault} comes
     * back with it): the replay closes it instead of asking the PSP ({@link #CLOSE_UNANSWERABLE}).
     */
    private static final String LEASE_DUE = """
            WITH due AS (SELECT id FROM psp_webhook_event
                          WHERE processed_at IS NULL AND received_at < now() - :minAgeSeconds * interval '1 second'
                          ORDER BY received_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            UPDATE psp_webhook_event e SET received_at = now(), lease_version = e.lease_version + 1
              FROM due WHERE e.id = due.id
            RETURNING e.id, e.payment_id, e.state, e.lease_version, e.fault
            """;
    /**
     * A leased receipt that can never apply (its payment id is over the limit: the PSP cannot be asked about an
     * id it never issued) closes as {@code ignored} under the replay's lease: its {@code fault} says why, its
     * payload stays as evidence until the pruner deletes it with every closed receipt.
     */
    private static final String CLOSE_UNANSWERABLE = """
            UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'ignored'
             WHERE id = :id AND lease_version = :version AND processed_at IS NULL AND fault = 'id_too_long'
            """;
    private static final String HOLD_LEASE = """
            SELECT id FROM psp_webhook_event WHERE id = :id AND lease_version = :version FOR UPDATE
            """;
    /** What the replay job works on: a receipt it can never look up waits for a person (the faulted gauge). */
    private static final String UNPROCESSED_STATS = """
            SELECT count(*) AS open, coalesce(extract(epoch FROM now() - min(first_received_at)), 0) AS oldest
              FROM psp_webhook_event WHERE processed_at IS NULL AND fault IS DISTINCT FROM 'id_too_long'
            """;
    private static final String FAULTED_STATS = """
            SELECT count(*) AS open, coalesce(extract(epoch FROM now() - min(first_received_at)), 0) AS oldest
              FROM psp_webhook_event WHERE processed_at IS NULL AND fault IS NOT NULL
            """;
    /**
     * Closed receipts past retention, judged from their closing (the index {@code psp_webhook_event_closed}).
     * An open receipt is never pruned, however old: it still waits for its truth. SKIP LOCKED: a receipt a
     * late delivery is looking at stays for the next pass.
     */
    private static final String PRUNE_CLOSED = """
            DELETE FROM psp_webhook_event
             WHERE id IN (SELECT id FROM psp_webhook_event
                           WHERE processed_at < now() - make_interval(secs => :retentionSeconds)
                           LIMIT :batchSize FOR UPDATE SKIP LOCKED)
            """;
    /** Keys longer than this go into the unique index as a bounded digest (a btree entry holds ~2.7 kB). */

    private final JdbcClient jdbc;
    private final JsonMapper json;

    InboxStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    Optional<Long> upsert(PspPayment payment) {
        return upsert(payment, null);
    }

    /**
     * The receipt of a payment with a value we cannot book, {@code fault} its kind. The raw values are
     * kept in {@code payload}; an id or state over {@value ReceiptKey#MAX_KEY} characters is keyed by its digest.
     */
    Optional<Long> upsert(PspPayment payment, String fault) {
        return jdbc.sql(UPSERT)
                .param("paymentId", ReceiptKey.of(payment.id()))
                .param("state", ReceiptKey.of(payment.state()))
                .param("paymentType", payment.paymentType())
                .param("referenceId", payment.referenceId())
                .param("payload", json.writeValueAsString(receipt(payment)))
                .param("fault", fault)
                .query(Long.class).optional();
    }

    /**
     * The webhook's receipt committed alone, outside any transaction (one statement, no COMMIT): it survives
     * whatever the apply after it does. Empty: processed already, a duplicate.
     */
    @Transactional(propagation = Propagation.NOT_SUPPORTED)
    Optional<Long> receiveAlone(PspPayment payment, String fault) {
        return upsert(payment, fault);
    }

    void close(long id, String reason) {
        int rows = jdbc.sql(CLOSE).param("id", id).param("reason", reason).update();
        if (rows != 1) {
            throw new ReceiptClosed(id);
        }
    }

    /** {@link #TAKE}: closes the open receipt as applied; throws when a concurrent apply closed it first. */
    @Transactional(propagation = Propagation.MANDATORY)
    void take(long id) {
        if (jdbc.sql(TAKE).param("id", id).update() != 1) {
            throw new ReceiptClosed(id);
        }
    }

    /** A taken receipt's verdict, when the apply's outcome was not {@code applied}. */
    @Transactional(propagation = Propagation.MANDATORY)
    void correctReason(long id, String reason) {
        expectOne(jdbc.sql(CORRECT_REASON).param("id", id).param("reason", reason).update(), id);
    }

    /** A taken receipt whose payment matched nothing: open again, for the replay job. */
    @Transactional(propagation = Propagation.MANDATORY)
    void reopen(long id) {
        expectOne(jdbc.sql(REOPEN).param("id", id).update(), id);
    }

    private static void expectOne(int rows, long id) {
        if (rows != 1) {
            throw new IllegalStateException("inbox receipt " + id + " was not taken by this transaction");
        }
    }

    /** The receipt was closed by a concurrent apply of the same state (which committed first). */
    static final class ReceiptClosed extends IllegalStateException {
        ReceiptClosed(long id) {
            super("inbox receipt " + id + " was closed concurrently");
        }
    }

    void supersede(long id) {
        jdbc.sql(SUPERSEDE).param("id", id).update();
    }

    List<Leased> leaseDue(Duration minAge, int limit) {
        return jdbc.sql(LEASE_DUE).param("minAgeSeconds", minAge.toSeconds()).param("limit", limit)
                .query((rs, n) -> new Leased(rs.getLong("id"), rs.getString("payment_id"), rs.getString("state"),
                        rs.getLong("lease_version"), rs.getString("fault")))
                .list();
    }

    @Transactional(propagation = Propagation.MANDATORY)
    boolean holdLease(long id, long version) {
        return jdbc.sql(HOLD_LEASE).param("id", id).param("version", version).query(Long.class).optional().isPresent();
    }

    /** Deletes up to {@code batchSize} receipts closed longer ago than the retention; returns how many. */
    int pruneClosed(Duration retention, int batchSize) {
        return jdbc.sql(PRUNE_CLOSED).param("retentionSeconds", retention.toSeconds()).param("batchSize", batchSize)
                .update();
    }

    /** Open receipts and the age in seconds of the oldest, for the gauges. */
    @Transactional(readOnly = true)
    OpenRows unprocessedRows() {
        return jdbc.sql(UNPROCESSED_STATS).query((rs, n) -> new OpenRows(rs.getDouble("open"), rs.getDouble("oldest")))
                .single();
    }

    /** Open receipts with a payload fault and the age of the oldest, for the gauges. */
    @Transactional(readOnly = true)
    OpenRows faultedRows() {
        return jdbc.sql(FAULTED_STATS).query((rs, n) -> new OpenRows(rs.getDouble("open"), rs.getDouble("oldest")))
                .single();
    }

    /**
     * {@link #CLOSE_UNANSWERABLE} under the replay's lease; false when another replay took the receipt over or
     * it is closed already.
     */
    boolean closeUnanswerable(long id, long version) {
        return Rows.atMostOne(jdbc.sql(CLOSE_UNANSWERABLE).param("id", id).param("version", version).update(),
                "psp_webhook_event");
    }

    /** A receipt leased by the replay job; {@code fault} its payload fault's kind, or null. */
    record Leased(long id, String paymentId, String state, long leaseVersion, String fault) {

        /** The PSP cannot be asked about it: its payment id is over the limit. */
        boolean unanswerable() {
            return PaymentPayloadFault.Kind.ID_TOO_LONG.slug().equals(fault);
        }
    }

    /** What we keep of a receipt: the payment's own fields, never the customer block. */
    private static Map<String, Object> receipt(PspPayment payment) {
        var fields = new LinkedHashMap<String, Object>();
        fields.put("id", payment.id());
        fields.put("referenceId", payment.referenceId());
        fields.put("paymentType", payment.paymentType());
        fields.put("state", payment.state());
        fields.put("amount", payment.amount() == null ? null : payment.amount().toPlainString());
        fields.put("currency", payment.currency());
        fields.put("parentPaymentId", payment.parentPaymentId());
        fields.put("errorCode", payment.errorCode());
        return fields;
    }


}
