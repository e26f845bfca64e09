package com.acme.payments.capture;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.sweep.OpenRows;
import com.acme.payments.sweep.Rows;
import com.acme.payments.sweep.SweptStore;
import com.acme.payments.sweep.Unresolved;

/** Owns {@code psp_payment_operation}: capture/void claimed before the call, settled conditionally. */
@Repository
@Transactional
public class OperationStore extends SweptStore<Operation> {

    private static final String CLAIM = """
            INSERT INTO psp_payment_operation (order_id, kind, state, psp_payment_id, requested_by, amount,
                                               idempotency_key)
            VALUES (:orderId, :kind, 'IN_FLIGHT', :paymentId, :actor, :amount, :key)
            ON CONFLICT DO NOTHING
            RETURNING id, order_id, kind, state, psp_payment_id, lease_version, amount, idempotency_key
            """;
    private static final String OPEN = """
            SELECT id, order_id, kind, state, psp_payment_id, lease_version, amount, idempotency_key FROM psp_payment_operation
             WHERE order_id = :orderId AND state IN ('IN_FLIGHT', 'UNKNOWN')
            """;
    private static final String BY_KEY = """
            SELECT id, order_id, kind, state, psp_payment_id, lease_version, amount, idempotency_key FROM psp_payment_operation
             WHERE order_id = :orderId AND idempotency_key = :key
            """;
    private static final String ERROR_CODE = "SELECT error_code FROM psp_payment_operation WHERE id = :id";
    private static final String BY_ID = "SELECT id, order_id, kind, state, psp_payment_id, lease_version, amount, idempotency_key FROM psp_payment_operation WHERE id = :id";
    private static final String MARK_UNKNOWN = """
            UPDATE psp_payment_operation SET state = 'UNKNOWN', updated_at = now() WHERE id = :id AND state = 'IN_FLIGHT'
            """;
    private static final String SETTLE = """
            UPDATE psp_payment_operation
               SET state = :state, error_code = :errorCode, error_message = :errorMessage, updated_at = now()
             WHERE id = :id AND state IN ('IN_FLIGHT', 'UNKNOWN')
            """;
    /**
     * A capture/void the PSP still shows AUTHORIZED long after the call (older than the in-flight age,
     * which exceeds the read timeout) was never performed (e.g. a 503 before the PSP acted): it closes
     * FAILED so the order can be captured or voided again. Safe to retry: capture and void act on the
     * one existing payment, and a repeat of a performed one is refused by the PSP.
     */
    private static final String SETTLE_NOT_PERFORMED = """
            UPDATE psp_payment_operation
               SET state = 'FAILED', error_code = 'NOT_PERFORMED',
                   error_message = 'payment still AUTHORIZED after the call', updated_at = now()
             WHERE id = :id AND state = 'UNKNOWN' AND created_at < now() - :ageSeconds * interval '1 second'
            """;

    private static final String AGE_IN_FLIGHT = """
            UPDATE psp_payment_operation SET state = 'UNKNOWN', updated_at = now()
             WHERE id IN (SELECT id FROM psp_payment_operation
                           WHERE state = 'IN_FLIGHT' AND updated_at < now() - :ageSeconds * interval '1 second'
                           ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            """;
    private static final String CLAIM_UNKNOWN = """
            UPDATE psp_payment_operation SET lease_version = lease_version + 1, updated_at = now(),
                                             lease_until = now() + :leaseSeconds * interval '1 second'
             WHERE id IN (SELECT id FROM psp_payment_operation
                           WHERE state = 'UNKNOWN' AND (lease_until IS NULL OR lease_until <= now())
                           ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            RETURNING id, order_id, kind, state, psp_payment_id, lease_version, amount, idempotency_key
            """;
    private static final String HOLD_LEASE = """
            SELECT id FROM psp_payment_operation WHERE id = :id AND lease_version = :version FOR UPDATE
            """;
    /** The pass's hold on rows it left UNKNOWN ends (fenced by version: a taken-over lease stays). */
    private static final String RELEASE_LEASES = """
            UPDATE psp_payment_operation t SET lease_until = NULL
              FROM unnest(CAST(:ids AS bigint[]), CAST(:versions AS bigint[])) AS l(id, version)
             WHERE t.id = l.id AND t.lease_version = l.version AND t.state = 'UNKNOWN'
            """;

    /** Read by the gauge refresh: the UNKNOWN operations of one kind, on the open rows' partial index. */
    private static final String UNKNOWN_STATS = """
            SELECT count(*) AS open, coalesce(extract(epoch FROM now() - min(created_at)), 0) AS oldest
              FROM psp_payment_operation WHERE state = 'UNKNOWN' AND kind = :kind
            """;
    private static final String UNRESOLVED = """
            SELECT p.id, p.kind, o.order_ref, p.state, p.created_at FROM psp_payment_operation p
              JOIN orders o ON o.id = p.order_id
             WHERE p.state IN ('IN_FLIGHT', 'UNKNOWN') ORDER BY p.created_at LIMIT :limit
            """;

    private static final RowMapper<Operation> ROW = (rs, n) -> new Operation(rs.getLong("id"), rs.getLong("order_id"),
            Operation.Kind.valueOf(rs.getString("kind")), rs.getString("state"), rs.getString("psp_payment_id"),
            rs.getLong("lease_version"), rs.getBigDecimal("amount"), rs.getString("idempotency_key"));

    private final JdbcClient jdbc;

    OperationStore(JdbcClient jdbc) {
        super(jdbc, ROW, AGE_IN_FLIGHT, CLAIM_UNKNOWN, HOLD_LEASE, RELEASE_LEASES);
        this.jdbc = jdbc;
    }

    /**
     * Ours to call when a row comes back; otherwise the operation of the same key (a concurrent repeat) or
     * the order's open operation, someone else's. Either conflict, open row or key, inserts nothing.
     */
    Claim claim(long orderId, Operation.Kind kind, String paymentId, String actor, BigDecimal amount, String key) {
        for (int pass = 0; pass < 2; pass++) {
            Optional<Operation> inserted = jdbc.sql(CLAIM).param("orderId", orderId).param("kind", kind.name())
                    .param("paymentId", paymentId).param("actor", actor).param("amount", amount).param("key", key)
                    .query(ROW).optional();
            if (inserted.isPresent()) {
                return new Claim(inserted.get(), true);
            }
            Optional<Operation> sameKey = key == null ? Optional.empty() : byKey(orderId, key);
            if (sameKey.isPresent()) {
                return new Claim(sameKey.get(), false);
            }
            Optional<Operation> open = jdbc.sql(OPEN).param("orderId", orderId).query(ROW).optional();
            if (open.isPresent()) {
                return new Claim(open.get(), false);
            }
        }
        throw new IllegalStateException("order " + orderId + ": no open operation after two claim passes");
    }

    /** The order's operation asked for under the caller's {@code key}, whatever its state. */
    @Transactional(readOnly = true)
    Optional<Operation> byKey(long orderId, String key) {
        return jdbc.sql(BY_KEY).param("orderId", orderId).param("key", key).query(ROW).optional();
    }

    /** Why a FAILED operation failed (the PSP's code), for the answer to a repeat. */
    @Transactional(readOnly = true)
    String errorCode(long id) {
        return jdbc.sql(ERROR_CODE).param("id", id).query(String.class).optional().orElse(null);
    }

    @Transactional(readOnly = true)
    Operation find(long id) {
        return jdbc.sql(BY_ID).param("id", id).query(ROW).single();
    }

    @Override
    public boolean markUnknown(long id) {
        return Rows.atMostOne(jdbc.sql(MARK_UNKNOWN).param("id", id).update(), "psp_payment_operation");
    }

    boolean settle(long id, boolean done, String errorCode, String errorMessage) {
        return Rows.atMostOne(jdbc.sql(SETTLE).param("id", id).param("state", done ? "DONE" : "FAILED")
                .param("errorCode", errorCode).param("errorMessage", errorMessage).update(), "psp_payment_operation");
    }

    /** True when the operation was old enough to close as not performed (see {@link #SETTLE_NOT_PERFORMED}). */
    boolean settleNotPerformed(long id, Duration age) {
        return Rows.atMostOne(jdbc.sql(SETTLE_NOT_PERFORMED).param("id", id).param("ageSeconds", age.toSeconds())
                .update(), "psp_payment_operation");
    }

    /** IN_FLIGHT and UNKNOWN operations, oldest first; the reference is the operation's id. */
    @Override
    @Transactional(readOnly = true)
    public List<Unresolved> unresolved(int limit) {
        return jdbc.sql(UNRESOLVED).param("limit", limit)
                .query((rs, n) -> new Unresolved(
                        rs.getString("kind").toLowerCase(Locale.ROOT), "op-" + rs.getLong("id"),
                        rs.getString("order_ref"), rs.getString("state"), rs.getTimestamp("created_at").toInstant()))
                .list();
    }

    /** How many operations of {@code kind} are UNKNOWN, and the oldest one's age in seconds. */
    @Transactional(readOnly = true)
    OpenRows unknownRows(Operation.Kind kind) {
        return jdbc.sql(UNKNOWN_STATS).param("kind", kind.name())
                .query((rs, n) -> new OpenRows(rs.getDouble("open"), rs.getDouble("oldest"))).single();
    }

    record Claim(Operation operation, boolean owner) {
    }
}
