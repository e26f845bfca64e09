package com.acme.payments.refund;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.sweep.OpenRows;
import com.acme.payments.sweep.Rows;
import com.acme.payments.sweep.SweptStore;
import com.acme.payments.sweep.Unresolved;

/**
 * Owns {@code psp_refund_attempt}: the refunds of orders and of second charges, one mechanism. Only SQL and
 * the meaning of its row counts: the claim's rules are {@link RefundClaimApplier}'s, the reservations
 * (on {@code orders.refunded_amount} for an order's refund; a second charge's live row is its own) are
 * {@link RefundReservationApplier}'s. Every settlement is state-conditional, so only the one call that
 * moved a row to FAILED gives its reservation back, whoever settles (owner, retry, webhook, sweep).
 */
@Repository
@Transactional
class RefundStore extends SweptStore<Refund> {

    private static final String BY_KEY = "SELECT * FROM psp_refund_attempt WHERE order_id = :orderId AND refund_key = :key";
    private static final String OTHER_UNKNOWN = """
            SELECT EXISTS (SELECT 1 FROM psp_refund_attempt
                            WHERE order_id = :orderId AND state = 'UNKNOWN' AND refund_key <> :key
                              AND duplicate_charge_id IS NULL)
            """;
    private static final String INSERT = """
            INSERT INTO psp_refund_attempt (order_id, refund_key, reference_id, amount, currency, state, requested_by,
                                            reason)
            VALUES (:orderId, :key, :referenceId, :amount, :currency, 'IN_FLIGHT', :actor, :reason)
            RETURNING *
            """;
    /** A second charge's live refund (IN_FLIGHT, UNKNOWN or DONE): at most one, by the unique index. */
    private static final String LIVE_FOR_CHARGE = """
            SELECT * FROM psp_refund_attempt
             WHERE duplicate_charge_id = :chargeId AND state IN ('IN_FLIGHT', 'UNKNOWN', 'DONE')
            """;
    private static final String INSERT_FOR_CHARGE = """
            INSERT INTO psp_refund_attempt (order_id, duplicate_charge_id, reference_id, amount, currency, state,
                                            requested_by, reason)
            VALUES (:orderId, :chargeId, :referenceId, :amount, :currency, 'IN_FLIGHT', :actor, :reason)
            RETURNING *
            """;
    /**
     * A refund made at the PSP by someone else, booked once under the PSP's id (its reference and its payment
     * id), already settled: DONE, or FAILED when first seen failed. No target on the conflict: a second report
     * of it (the reference) and, for a second charge, another live refund of that charge (its unique index)
     * both insert nothing.
     */
    private static final String INSERT_EXTERNAL = """
            INSERT INTO psp_refund_attempt (order_id, duplicate_charge_id, reference_id, psp_payment_id, amount,
                                            currency, state, psp_state, error_code, error_message, origin)
            VALUES (:orderId, :chargeId, :paymentId, :paymentId, :amount, :currency, :state, :pspState, :errorCode,
                    :errorMessage, 'external')
            ON CONFLICT DO NOTHING
            RETURNING *
            """;
    /** The second charge (id, order) a PSP payment id names, for a refund of it made elsewhere. */
    private static final String CHARGE_OF_PAYMENT = """
            SELECT id, order_id FROM duplicate_charge WHERE psp_payment_id = :paymentId
            """;
    private static final String SETTLE = """
            UPDATE psp_refund_attempt
               SET state = :state, psp_payment_id = coalesce(psp_payment_id, :paymentId), psp_state = :pspState,
                   error_code = :errorCode, error_message = :errorMessage, updated_at = now()
             WHERE id = :id AND state IN ('IN_FLIGHT', 'UNKNOWN')
            RETURNING *
            """;
    /**
     * The PSP declined a refund it had accepted and not yet completed: DONE → FAILED once; the caller
     * releases the reservation. Final is final: a refund the PSP reported COMPLETED never fails (the money
     * left), whatever arrives later.
     */
    private static final String FAIL_DONE = """
            UPDATE psp_refund_attempt
               SET state = 'FAILED', psp_payment_id = coalesce(psp_payment_id, :paymentId), psp_state = :pspState,
                   error_code = :errorCode, error_message = :errorMessage, updated_at = now()
             WHERE id = :id AND state = 'DONE'
               AND (psp_state IS NULL OR psp_state NOT IN ('COMPLETED', 'DECLINED', 'CANCELLED'))
            RETURNING *
            """;
    /** A DONE refund's PSP state moved on without failing (PENDING → COMPLETED); a final one stays. */
    private static final String TRACK_PSP_STATE = """
            UPDATE psp_refund_attempt
               SET psp_state = :pspState, psp_payment_id = coalesce(psp_payment_id, :paymentId), updated_at = now()
             WHERE id = :id AND state = 'DONE' AND psp_state IS DISTINCT FROM :pspState
               AND (psp_state IS NULL OR psp_state NOT IN ('COMPLETED', 'DECLINED', 'CANCELLED'))
            """;
    /** An operator closes an UNKNOWN refund the PSP confirmed it never saw; the caller releases. */
    /**
     * Only an UNKNOWN refund no sweep pass holds: a pass that claimed it may be replaying its create right now,
     * and once abandoned nothing may send it again (the pass lets go of what it left UNKNOWN when it ends).
     */
    private static final String ABANDON = """
            UPDATE psp_refund_attempt
               SET state = 'FAILED', error_code = 'abandoned', error_message = 'abandoned by an operator at ' || now(),
                   abandoned_by = :actor, abandoned_at = now(), reason = coalesce(:reason, reason), updated_at = now()
             WHERE reference_id = :referenceId AND state = 'UNKNOWN' AND (lease_until IS NULL OR lease_until <= now())
            RETURNING *
            """;
    /**
     * The PSP did make a refund an operator abandoned: it is DONE after all, and books again (the
     * caller re-reserves; the money has left either way).
     */
    private static final String REVIVE_ABANDONED = """
            UPDATE psp_refund_attempt
               SET state = 'DONE', psp_payment_id = coalesce(psp_payment_id, :paymentId), psp_state = :pspState,
                   error_code = NULL, error_message = NULL, updated_at = now()
             WHERE id = :id AND state = 'FAILED' AND error_code = 'abandoned'
            """;
    private static final String UNRESOLVED = """
            SELECT CASE WHEN r.duplicate_charge_id IS NULL THEN 'refund' ELSE 'duplicate_refund' END AS kind,
                   r.reference_id, o.order_ref, r.state, r.created_at FROM psp_refund_attempt r
              JOIN orders o ON o.id = r.order_id
             WHERE r.state IN ('IN_FLIGHT', 'UNKNOWN') ORDER BY r.created_at LIMIT :limit
            """;
    /** A claim's rows ({@code claimed}) with what each refund was sent against: its order's ref and the payment refunded. */
    private static final String CLAIMED_WITH_PARENT = """
            SELECT c.*, o.order_ref AS parent_order_ref,
                   coalesce(d.psp_payment_id, o.psp_payment_id) AS parent_payment_id
              FROM claimed c
              JOIN orders o ON o.id = c.order_id
              LEFT JOIN duplicate_charge d ON d.id = c.duplicate_charge_id
            """;
    /**
     * DONE refunds whose PSP state is not final, every {@code grace}; and refunds an operator abandoned
     * within the watch (the PSP may show them after all) when due by {@code late_truth_due} (V322: gaps
     * growing from {@code grace} to a day, the rule the attempt watch shares). Leased by last_polled_at
     * (database clock), least recent first. A DONE refund whose PSP state was never learnt (psp_state
     * NULL: accepted before V313, no receipt to backfill it from, V325) is asked about for the same watch
     * after its last change, then left: a PSP that has purged it would otherwise be asked for ever. The rows
     * come back with what each was sent against ({@link #CLAIMED_WITH_PARENT}), as the sweep's claim does, so an
     * abandoned refund's look-up rebuilds its create without a read of its own.
     */
    private static final String CLAIM_NOT_FINAL = """
            WITH claimed AS (
              UPDATE psp_refund_attempt SET last_polled_at = now()
               WHERE id IN (SELECT id FROM psp_refund_attempt
                             WHERE (state = 'DONE'
                                     AND (psp_state NOT IN ('COMPLETED', 'DECLINED', 'CANCELLED')
                                          OR (psp_state IS NULL
                                              AND updated_at > now() - :watchSeconds * interval '1 second'))
                                     AND updated_at < now() - :graceSeconds * interval '1 second'
                                     AND (last_polled_at IS NULL OR last_polled_at < now() - :graceSeconds * interval '1 second'))
                                 OR (state = 'FAILED' AND error_code = 'abandoned' AND psp_payment_id IS NULL
                                     AND abandoned_at > now() - :watchSeconds * interval '1 second'
                                     AND late_truth_due(abandoned_at, last_polled_at, :graceSeconds * interval '1 second') <= now())
                             ORDER BY last_polled_at NULLS FIRST, updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
              RETURNING *)
            """ + CLAIMED_WITH_PARENT;
    private static final String MARK_UNKNOWN = """
            UPDATE psp_refund_attempt SET state = 'UNKNOWN', updated_at = now() WHERE id = :id AND state = 'IN_FLIGHT'
            """;
    private static final String BY_ID = "SELECT * FROM psp_refund_attempt WHERE id = :id";
    /** One open state's count for the by-state gauge; the literal list lets the index psp_refund_unresolved serve it. */
    private static final String COUNT_OPEN = """
            SELECT count(*) FROM psp_refund_attempt WHERE state = :state AND state IN ('IN_FLIGHT', 'UNKNOWN')
            """;
    private static final String LOCK_BY_ID = "SELECT * FROM psp_refund_attempt WHERE id = :id FOR UPDATE";
    private static final String BY_PAYMENT = "SELECT * FROM psp_refund_attempt WHERE psp_payment_id = :paymentId";
    private static final String BY_REFERENCE = "SELECT * FROM psp_refund_attempt WHERE reference_id = :referenceId";
    private static final String FOR_ORDER = """
            SELECT * FROM psp_refund_attempt WHERE order_id = :orderId AND duplicate_charge_id IS NULL ORDER BY id
            """;
    private static final String RESERVED_BY_CURRENCY = """
            SELECT currency, sum(amount) AS reserved FROM psp_refund_attempt
             WHERE state IN ('IN_FLIGHT', 'UNKNOWN') AND duplicate_charge_id IS NULL GROUP BY currency
            """;

    private static final String AGE_IN_FLIGHT = """
            UPDATE psp_refund_attempt SET state = 'UNKNOWN', updated_at = now()
             WHERE id IN (SELECT id FROM psp_refund_attempt
                           WHERE state = 'IN_FLIGHT' AND updated_at < now() - :ageSeconds * interval '1 second'
                           ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            """;
    /**
     * One-statement claim with a database-clock lease and a fencing version, as for checkout attempts. The claimed
     * rows come back with what each was sent against ({@link #CLAIMED_WITH_PARENT}), so the sweep's
     * reconcile rebuilds the create without a read per refund.
     */
    private static final String CLAIM_UNKNOWN = """
            WITH claimed AS (
              UPDATE psp_refund_attempt SET lease_version = lease_version + 1, updated_at = now(),
                                            lease_until = now() + :leaseSeconds * interval '1 second'
               WHERE id IN (SELECT id FROM psp_refund_attempt
                             WHERE state = 'UNKNOWN' AND (lease_until IS NULL OR lease_until <= now())
                             ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
              RETURNING *)
            """ + CLAIMED_WITH_PARENT;
    private static final String HOLD_LEASE = """
            SELECT id FROM psp_refund_attempt WHERE id = :id AND lease_version = :version FOR UPDATE
            """;
    /** The pass's hold on rows it left UNKNOWN ends (fenced by version: a taken-over lease stays). */
    private static final String RELEASE_LEASES = """
            UPDATE psp_refund_attempt t SET lease_until = NULL
              FROM unnest(CAST(:ids AS bigint[]), CAST(:versions AS bigint[])) AS l(id, version)
             WHERE t.id = l.id AND t.lease_version = l.version AND t.state = 'UNKNOWN'
            """;
    private static final String UNKNOWN_STATS = """
            SELECT count(*) AS open, coalesce(extract(epoch FROM now() - min(created_at)), 0) AS oldest
              FROM psp_refund_attempt WHERE state = 'UNKNOWN'
            """;

    private static final RowMapper<Refund> ROW = RefundStore::map;
    private static final RowMapper<Refund> WITH_PARENT = RefundStore::mapWithParent;

    private final JdbcClient jdbc;

    RefundStore(JdbcClient jdbc) {
        super(jdbc, WITH_PARENT, AGE_IN_FLIGHT, CLAIM_UNKNOWN, HOLD_LEASE, RELEASE_LEASES);
        this.jdbc = jdbc;
    }

    /** Under the order's lock ({@link RefundClaimApplier}): the order's refund with this key. */
    @Transactional(propagation = Propagation.MANDATORY)
    Optional<Refund> findByKey(long orderId, String key) {
        return jdbc.sql(BY_KEY).param("orderId", orderId).param("key", key).query(ROW).optional();
    }

    /** Whether another refund of the order (not of a second charge) is UNKNOWN. */
    @Transactional(propagation = Propagation.MANDATORY)
    boolean otherUnknown(long orderId, String key) {
        return jdbc.sql(OTHER_UNKNOWN).param("orderId", orderId).param("key", key).query(Boolean.class).single();
    }

    /** A new IN_FLIGHT refund of the order; the caller reserves its amount in the same transaction. */
    @Transactional(propagation = Propagation.MANDATORY)
    Refund insert(long orderId, String key, BigDecimal amount, String currency, String referenceId, String actor,
            String reason) {
        return jdbc.sql(INSERT).param("orderId", orderId).param("key", key).param("referenceId", referenceId)
                .param("amount", amount).param("currency", currency).param("actor", actor).param("reason", reason)
                .query(ROW).single();
    }

    /** The second charge's live refund, if any (at most one, by the unique index). */
    @Transactional(propagation = Propagation.MANDATORY)
    Optional<Refund> liveForCharge(long chargeId) {
        return jdbc.sql(LIVE_FOR_CHARGE).param("chargeId", chargeId).query(ROW).optional();
    }

    /** A new IN_FLIGHT refund of a second charge: being live, it is the charge's reservation. */
    @Transactional(propagation = Propagation.MANDATORY)
    Refund insertForCharge(long orderId, long chargeId, BigDecimal amount, String currency, String referenceId,
            String actor, String reason) {
        return jdbc.sql(INSERT_FOR_CHARGE).param("orderId", orderId).param("chargeId", chargeId)
                .param("referenceId", referenceId).param("amount", amount).param("currency", currency)
                .param("actor", actor).param("reason", reason).query(ROW).single();
    }

    /**
     * Books a refund made elsewhere ({@link #INSERT_EXTERNAL}) in the caller's transaction, which adds a DONE
     * one to what is refunded; empty when it is booked already or its second charge has a live refund.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    Optional<Refund> insertExternal(long orderId, Long chargeId, RefundState state, String paymentId,
            BigDecimal amount, String currency, String pspState, String errorCode, String errorMessage) {
        if (state.isOpen()) {
            throw new IllegalArgumentException("a refund made elsewhere is booked settled, not " + state);
        }
        return jdbc.sql(INSERT_EXTERNAL).param("orderId", orderId).param("chargeId", chargeId)
                .param("paymentId", paymentId).param("amount", amount).param("currency", currency)
                .param("state", state.name()).param("pspState", pspState).param("errorCode", errorCode)
                .param("errorMessage", truncate(errorMessage)).query(ROW).optional();
    }

    /** The second charge this PSP payment id is, if any: its id and its order's. */
    @Transactional(propagation = Propagation.MANDATORY)
    Optional<ChargeOf> chargeOfPayment(String paymentId) {
        return jdbc.sql(CHARGE_OF_PAYMENT).param("paymentId", paymentId)
                .query((rs, n) -> new ChargeOf(rs.getLong("id"), rs.getLong("order_id"))).optional();
    }

    record ChargeOf(long id, long orderId) {
    }

    /**
     * Moves an open refund to DONE or FAILED, in the caller's transaction ({@link RefundApplier} releases a
     * FAILED one's reservation in it). Empty when someone else settled it first (nothing is released twice).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    Optional<Refund> settle(long id, RefundState outcome, String paymentId, String pspState, String errorCode,
            String errorMessage) {
        if (outcome.isOpen()) {
            throw new IllegalArgumentException("settle to a final state, not " + outcome);
        }
        return jdbc.sql(SETTLE).param("id", id).param("state", outcome.name())
                .param("paymentId", paymentId).param("pspState", pspState).param("errorCode", errorCode)
                .param("errorMessage", truncate(errorMessage))
                .query(ROW).optional();
    }

    /**
     * DONE → FAILED on the PSP's later decline (the caller releases); empty when not DONE or when the PSP had
     * reported it final already.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    Optional<Refund> failDone(long id, String paymentId, String pspState, String errorCode, String errorMessage) {
        return jdbc.sql(FAIL_DONE).param("id", id).param("paymentId", paymentId)
                .param("pspState", pspState).param("errorCode", errorCode).param("errorMessage", truncate(errorMessage))
                .query(ROW).optional();
    }

    boolean trackPspState(long id, String paymentId, String pspState) {
        return jdbc.sql(TRACK_PSP_STATE).param("id", id).param("paymentId", paymentId).param("pspState", pspState)
                .update() == 1;
    }

    /** UNKNOWN → FAILED (abandoned), the caller releasing in the same transaction; empty when not UNKNOWN. */
    @Transactional(propagation = Propagation.MANDATORY)
    Optional<Refund> abandon(String referenceId, String actor, String reason) {
        return jdbc.sql(ABANDON).param("referenceId", referenceId).param("actor", actor)
                .param("reason", reason).query(ROW).optional();
    }

    /** Locks the refund row for the rest of the caller's transaction (before its order: the lock order). */
    @Transactional(propagation = Propagation.MANDATORY)
    Refund lock(long id) {
        return jdbc.sql(LOCK_BY_ID).param("id", id).query(ROW).single();
    }

    /** An abandoned refund is DONE after all; false when it is not abandoned (any more). */
    @Transactional(propagation = Propagation.MANDATORY)
    boolean reviveAbandoned(long id, String paymentId, String pspState) {
        return Rows.atMostOne(jdbc.sql(REVIVE_ABANDONED).param("id", id).param("paymentId", paymentId)
                .param("pspState", pspState).update(), "psp_refund_attempt");
    }

    /** What the refund was sent against: the order's payment, or the second charge it refunds. */
    private static final String PARENT = """
            SELECT o.order_ref, coalesce(d.psp_payment_id, o.psp_payment_id) AS parent_payment_id
              FROM psp_refund_attempt r
              JOIN orders o ON o.id = r.order_id
              LEFT JOIN duplicate_charge d ON d.id = r.duplicate_charge_id
             WHERE r.id = :id
            """;

    /** The order's reference and the payment a refund was sent against, to rebuild its create. */
    @Transactional(readOnly = true)
    Parent parentOf(long refundId) {
        return jdbc.sql(PARENT).param("id", refundId)
                .query((rs, n) -> new Parent(rs.getString("order_ref"), rs.getString("parent_payment_id"))).single();
    }

    record Parent(String orderRef, String paymentId) {
    }

    @Transactional(readOnly = true)
    Optional<Refund> findByReference(String referenceId) {
        return jdbc.sql(BY_REFERENCE).param("referenceId", referenceId).query(ROW).optional();
    }

    @Override
    @Transactional(readOnly = true)
    public List<Unresolved> unresolved(int limit) {
        return jdbc.sql(UNRESOLVED).param("limit", limit)
                .query((rs, n) -> new Unresolved(rs.getString("kind"), rs.getString("reference_id"),
                        rs.getString("order_ref"), rs.getString("state"), rs.getTimestamp("created_at").toInstant()))
                .list();
    }

    List<Refund> claimNotFinal(Duration grace, Duration abandonedWatch, int limit) {
        return jdbc.sql(CLAIM_NOT_FINAL).param("graceSeconds", grace.toSeconds())
                .param("watchSeconds", abandonedWatch.toSeconds()).param("limit", limit).query(WITH_PARENT).list();
    }

    private static String truncate(String message) {
        return message == null || message.length() <= 500 ? message : message.substring(0, 500);
    }

    @Override
    public boolean markUnknown(long id) {
        return Rows.atMostOne(jdbc.sql(MARK_UNKNOWN).param("id", id).update(), "psp_refund_attempt");
    }

    /** Refunds (of orders and second charges) in an open state ({@code IN_FLIGHT}, {@code UNKNOWN}). */
    @Transactional(readOnly = true)
    long countOpen(RefundState state) {
        return jdbc.sql(COUNT_OPEN).param("state", state.name()).query(Long.class).single();
    }

    @Transactional(readOnly = true)
    Optional<Refund> find(long id) {
        return jdbc.sql(BY_ID).param("id", id).query(ROW).optional();
    }

    @Transactional(readOnly = true)
    Optional<Refund> findForPayment(String paymentId, String referenceId) {
        Optional<Refund> linked = paymentId == null ? Optional.empty()
                : jdbc.sql(BY_PAYMENT).param("paymentId", paymentId).query(ROW).optional();
        if (linked.isPresent() || referenceId == null) {
            return linked;
        }
        return jdbc.sql(BY_REFERENCE).param("referenceId", referenceId).query(ROW).optional();
    }

    @Transactional(readOnly = true)
    List<Refund> forOrder(long orderId) {
        return jdbc.sql(FOR_ORDER).param("orderId", orderId).query(ROW).list();
    }

    @Transactional(readOnly = true)
    Map<String, BigDecimal> reservedByCurrency() {
        Map<String, BigDecimal> reserved = new HashMap<>();
        jdbc.sql(RESERVED_BY_CURRENCY).query((rs, n) -> reserved.put(rs.getString("currency"),
                rs.getBigDecimal("reserved"))).list();
        return reserved;
    }

    @Override
    @Transactional(readOnly = true)
    public Optional<OpenRows> unknownRows() {
        return Optional.of(jdbc.sql(UNKNOWN_STATS)
                .query((rs, n) -> new OpenRows(rs.getDouble("open"), rs.getDouble("oldest"))).single());
    }

    private static Refund mapWithParent(ResultSet rs, int row) throws SQLException {
        Refund r = map(rs, row);
        return new Refund(r.id(), r.orderId(), r.refundKey(), r.referenceId(), r.amount(), r.currency(), r.state(),
                r.pspPaymentId(), r.errorCode(), r.errorMessage(), r.createdAt(), r.leaseVersion(), r.pspState(),
                r.requestedBy(), r.reason(), r.abandonedBy(), r.duplicateChargeId(), r.origin(),
                new Parent(rs.getString("parent_order_ref"), rs.getString("parent_payment_id")));
    }

    private static Refund map(ResultSet rs, int row) throws SQLException {
        return new Refund(rs.getLong("id"), rs.getLong("order_id"), rs.getString("refund_key"),
                rs.getString("reference_id"), rs.getBigDecimal("amount"), rs.getString("currency"),
                RefundState.valueOf(rs.getString("state")), rs.getString("psp_payment_id"),
                rs.getString("error_code"), rs.getString("error_message"), rs.getTimestamp("created_at").toInstant(),
                rs.getLong("lease_version"), rs.getString("psp_state"), rs.getString("requested_by"),
                rs.getString("reason"), rs.getString("abandoned_by"), rs.getObject("duplicate_charge_id", Long.class),
                rs.getString("origin"));
    }
}
