package com.acme.payments.checkout;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.order.CustomerEmailCopies;
import com.acme.payments.sweep.OpenRows;
import com.acme.payments.sweep.Rows;
import com.acme.payments.sweep.SweptStore;
import com.acme.payments.sweep.Unresolved;

/**
 * Owns {@code psp_attempt}. Every method is its own short transaction (or joins the caller's), and
 * every state change is conditional on the state it leaves, so owner, webhook and sweep can race on
 * one attempt and exactly one of them settles it.
 * Look-ups of one statement are {@code SUPPORTS}: alone, one statement is its own snapshot and a read-only
 * transaction would only add a COMMIT round trip; inside a caller's transaction they join it.
 */
@Repository
@Transactional
public class AttemptStore extends SweptStore<Attempt> implements CustomerEmailCopies {

    /** The claim: the partial unique index decides who owns the order's one open attempt. */
    private static final String CLAIM = """
            INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_request)
            VALUES (:orderId, :referenceId, 'IN_FLIGHT', :amount, :currency, :returnUrl, :pspRequest)
            ON CONFLICT (order_id) WHERE state IN ('IN_FLIGHT', 'UNKNOWN', 'READY') DO NOTHING
            RETURNING *
            """;
    private static final String OPEN_FOR_ORDER = """
            SELECT * FROM psp_attempt
             WHERE order_id = :orderId AND state IN ('IN_FLIGHT', 'UNKNOWN', 'READY')
            """;
    private static final String LATEST_FOR_ORDER = """
            SELECT * FROM psp_attempt WHERE order_id = :orderId ORDER BY id DESC LIMIT 1
            """;
    /** The straggler poll's batch: each order's latest attempt in one read (the index psp_attempt_order). */
    private static final String LATEST_FOR_ORDERS = """
            SELECT DISTINCT ON (order_id) * FROM psp_attempt WHERE order_id IN (:orderIds) ORDER BY order_id, id DESC
            """;
    private static final String BY_ID = "SELECT * FROM psp_attempt WHERE id = :id";
    /** One open state's count for the by-state gauge; the literal list lets the partial index psp_attempt_open serve it. */
    private static final String COUNT_OPEN = """
            SELECT count(*) FROM psp_attempt WHERE state = :state AND state IN ('IN_FLIGHT', 'UNKNOWN', 'READY')
            """;
    private static final String BY_REFERENCE = "SELECT * FROM psp_attempt WHERE reference_id = :referenceId";
    private static final String FOR_ORDER = "SELECT * FROM psp_attempt WHERE order_id = :orderId ORDER BY id";
    private static final String BY_PAYMENT = """
            SELECT * FROM psp_attempt WHERE psp_payment_id = :paymentId ORDER BY id DESC LIMIT 1
            """;
    private static final String MARK_UNKNOWN = """
            UPDATE psp_attempt SET state = 'UNKNOWN', updated_at = now()
             WHERE id = :id AND state = 'IN_FLIGHT'
            """;
    /**
     * READY again is allowed so a late owner can still store the redirect the webhook did not carry. READY again
     * without news (the webhook after the checkout's answer) keeps updated_at: then no indexed column changes
     * (psp_attempt_unresolved keys updated_at) and PostgreSQL updates the row HOT, writing no index entry.
     */
    private static final String PROMOTE_READY = """
            UPDATE psp_attempt
               SET state = 'READY', psp_payment_id = coalesce(psp_payment_id, :paymentId),
                   redirect_url = coalesce(:redirectUrl, redirect_url),
                   updated_at = CASE WHEN state = 'READY' AND psp_payment_id IS NOT NULL
                                      AND redirect_url IS NOT DISTINCT FROM coalesce(:redirectUrl, redirect_url)
                                     THEN updated_at ELSE now() END
             WHERE id = :id AND state IN ('IN_FLIGHT', 'UNKNOWN', 'READY')
            RETURNING *
            """;
    private static final String MARK_FAILED = """
            UPDATE psp_attempt
               SET state = 'FAILED', failure_reason = :reason, psp_payment_id = coalesce(psp_payment_id, :paymentId),
                   error_code = :errorCode, error_message = :errorMessage, updated_at = now()
             WHERE id = :id AND state IN (:from)
            RETURNING *
            """;
    /** Only UNKNOWN: an IN_FLIGHT owner may still be mid-call and about to store the PSP's answer. */
    /**
     * Only an UNKNOWN attempt no sweep pass holds: a pass that claimed it may be replaying its create right now,
     * and once abandoned nothing may send it again (the pass lets go of what it left UNKNOWN when it ends).
     */
    private static final String ABANDON = """
            UPDATE psp_attempt
               SET state = 'FAILED', failure_reason = 'abandoned', error_code = 'abandoned', abandoned_by = :who,
                   abandon_reason = :reason, abandoned_at = now(),
                   error_message = 'abandoned by an operator at ' || now(), updated_at = now()
             WHERE reference_id = :referenceId AND state = 'UNKNOWN' AND (lease_until IS NULL OR lease_until <= now())
            """;
    private static final String LINK_PAYMENT = """
            UPDATE psp_attempt SET psp_payment_id = :paymentId, updated_at = now()
             WHERE id = :id AND psp_payment_id IS NULL
            """;
    /** Compare-and-set on the id the caller read: a concurrent move (or any other id meanwhile) matches nothing. */
    private static final String SUPERSEDE_PAYMENT = """
            UPDATE psp_attempt SET psp_payment_id = :paymentId, updated_at = now()
             WHERE id = :id AND psp_payment_id = :provisionalId
            """;
    /** Read after LINK_PAYMENT wrote nothing: the attempt's id is this payment's (true) or another's (false). */
    private static final String LINKED_TO = """
            SELECT psp_payment_id IS NOT DISTINCT FROM :paymentId FROM psp_attempt WHERE id = :id
            """;
    private static final String UNRESOLVED = """
            SELECT a.reference_id, o.order_ref, a.state, a.created_at AS since FROM psp_attempt a JOIN orders o ON o.id = a.order_id
             WHERE a.state IN ('IN_FLIGHT', 'UNKNOWN') ORDER BY a.created_at LIMIT :limit
            """;

    /** The owner of an IN_FLIGHT row older than the threshold is presumed dead (it would have timed out). */
    private static final String AGE_IN_FLIGHT = """
            UPDATE psp_attempt SET state = 'UNKNOWN', updated_at = now()
             WHERE id IN (SELECT id FROM psp_attempt
                           WHERE state = 'IN_FLIGHT' AND updated_at < now() - :ageSeconds * interval '1 second'
                           ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            """;
    /**
     * One statement claims a batch: SKIP LOCKED keeps concurrent sweeps apart; an UNKNOWN row is due at once
     * unless a pass holds it, and lease_until hides a claimed row from the other instances for the lease
     * (database clock); the bumped version fences a sweeper whose lease was taken over. The claimed rows come
     * back with their order's part of the request (the sweep's reconcile rebuilds the create from both), so
     * resolving one needs no order read of its own.
     */
    private static final String CLAIM_UNKNOWN = """
            WITH claimed AS (
              UPDATE psp_attempt SET lease_version = lease_version + 1, updated_at = now(),
                                     lease_until = now() + :leaseSeconds * interval '1 second'
               WHERE id IN (SELECT id FROM psp_attempt
                             WHERE state = 'UNKNOWN' AND (lease_until IS NULL OR lease_until <= now())
                             ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
              RETURNING *)
            SELECT c.*, o.order_ref AS payer_order_ref, o.customer_ref AS payer_customer_ref,
                   o.customer_email AS payer_customer_email
              FROM claimed c JOIN orders o ON o.id = c.order_id
            """;
    private static final String HOLD_LEASE = """
            SELECT id FROM psp_attempt WHERE id = :id AND lease_version = :version FOR UPDATE
            """;
    /** The pass's hold on rows it left UNKNOWN ends (fenced by version: a taken-over lease stays). */
    private static final String RELEASE_LEASES = """
            UPDATE psp_attempt t SET lease_until = NULL
              FROM unnest(CAST(:ids AS bigint[]), CAST(:versions AS bigint[])) AS l(id, version)
             WHERE t.id = l.id AND t.lease_version = l.version AND t.state = 'UNKNOWN'
            """;
    /**
     * The abandoned-attempt watch's claim: abandoned attempts within the watch window whose payment the PSP
     * has not yet shown as final and that are due ({@code late_truth_due}, V322: the gap since the last
     * look-up grows from {@code grace} to a day with the row's age, the rule the refund watch shares), least
     * recently polled first; the bumped last_polled_at is also the lease that keeps other instances off the
     * row (database clock). The rows come back with their order's part of the request, as the sweep's claim
     * does: the watch's look-up rebuilds the create without an order read per attempt.
     */
    private static final String CLAIM_ABANDONED = """
            WITH claimed AS (
              UPDATE psp_attempt SET last_polled_at = now()
               WHERE id IN (SELECT id FROM psp_attempt
                             WHERE failure_reason = 'abandoned' AND watch_closed_at IS NULL AND state = 'FAILED'
                               AND abandoned_at > now() - :watchSeconds * interval '1 second'
                               AND late_truth_due(abandoned_at, last_polled_at, :graceSeconds * interval '1 second') <= now()
                             ORDER BY last_polled_at NULLS FIRST, abandoned_at LIMIT :limit FOR UPDATE SKIP LOCKED)
              RETURNING *)
            SELECT c.*, o.order_ref AS payer_order_ref, o.customer_ref AS payer_customer_ref,
                   o.customer_email AS payer_customer_email
              FROM claimed c JOIN orders o ON o.id = c.order_id
            """;
    private static final String CLOSE_WATCH = """
            UPDATE psp_attempt SET watch_closed_at = now() WHERE id = :id AND watch_closed_at IS NULL
            """;
    /**
     * The customer's e-mail out of the stored Stripe session request ({@code customer_email} in its form) of
     * orders whose e-mail was just erased; everything else of the request stays. The request then no longer
     * matches what was sent, so a replay of it under the same key would be refused (idempotency_error) — and
     * none is ever needed: the erasure comes 540 days after the order's last change, while a replay is sent
     * only while the session's {@code expires_at} (at most 24 h after the claim) is more than 31 minutes
     * ahead. What an erased row still needs of it (claim and expiry times for the session listing) stays.
     */
    private static final String ERASE_REQUEST_EMAIL = """
            UPDATE psp_attempt
               SET psp_request = jsonb_set(psp_request::jsonb, '{form}', to_jsonb(regexp_replace(
                       psp_request::jsonb ->> 'form', '^customer_email=[^&]*&?|&customer_email=[^&]*', '', 'g')))::text
             WHERE order_id = ANY (CAST(:orderIds AS bigint[])) AND psp_request LIKE '%customer_email=%'
            """;
    private static final String OPEN_UNKNOWN_STATS = """
            SELECT count(*) AS open, coalesce(extract(epoch FROM now() - min(created_at)), 0) AS oldest
              FROM psp_attempt WHERE state = 'UNKNOWN'
            """;

    private static final RowMapper<Attempt> ROW = AttemptStore::map;
    private static final RowMapper<Attempt> WITH_PAYER = AttemptStore::mapWithPayer;

    private final JdbcClient jdbc;

    AttemptStore(JdbcClient jdbc) {
        super(jdbc, WITH_PAYER, AGE_IN_FLIGHT, CLAIM_UNKNOWN, HOLD_LEASE, RELEASE_LEASES);
        this.jdbc = jdbc;
    }

    /**
     * Claims the order's open attempt: a new IN_FLIGHT row (we own it and must call the PSP), or the
     * existing open one (someone else owns it). The second pass covers the open attempt turning FAILED
     * between our INSERT and SELECT. In {@link AttemptClaimApplier}'s transaction (it reopens a failed order).
     * {@code pspRequest} (the provider's fixed request, may be null) is stored only with a new attempt.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    Claim claim(long orderId, BigDecimal amount, String currency, String returnUrl, String newReference,
            String pspRequest) {
        for (int pass = 0; pass < 2; pass++) {
            Optional<Attempt> inserted = jdbc.sql(CLAIM)
                    .param("orderId", orderId)
                    .param("referenceId", newReference)
                    .param("amount", amount)
                    .param("currency", currency)
                    .param("returnUrl", returnUrl)
                    .param("pspRequest", pspRequest)
                    .query(ROW).optional();
            if (inserted.isPresent()) {
                return new Claim(inserted.get(), true);
            }
            Optional<Attempt> open = jdbc.sql(OPEN_FOR_ORDER).param("orderId", orderId).query(ROW).optional();
            if (open.isPresent()) {
                return new Claim(open.get(), false);
            }
        }
        throw new IllegalStateException("order " + orderId + ": no open attempt after two claim passes");
    }

    /** Attempts in an open state ({@code IN_FLIGHT}, {@code UNKNOWN}, {@code READY}); final states read 0. */
    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    long countOpen(AttemptState state) {
        return jdbc.sql(COUNT_OPEN).param("state", state.name()).query(Long.class).single();
    }

    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    Optional<Attempt> find(long id) {
        return jdbc.sql(BY_ID).param("id", id).query(ROW).optional();
    }

    /** An order's attempts, oldest first (the console's order page). */
    @Transactional(readOnly = true)
    public List<Attempt> forOrder(long orderId) {
        return jdbc.sql(FOR_ORDER).param("orderId", orderId).query(ROW).list();
    }

    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    Optional<Attempt> findByReference(String referenceId) {
        return jdbc.sql(BY_REFERENCE).param("referenceId", referenceId).query(ROW).optional();
    }

    /** The attempt a PSP payment belongs to: by its id once linked, else by our reference. */
    @Transactional(readOnly = true)
    public Optional<Attempt> findForPayment(String paymentId, String referenceId) {
        Optional<Attempt> linked = paymentId == null ? Optional.empty()
                : jdbc.sql(BY_PAYMENT).param("paymentId", paymentId).query(ROW).optional();
        if (linked.isPresent() || referenceId == null) {
            return linked;
        }
        return findByReference(referenceId);
    }

    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    Optional<Attempt> latestForOrder(long orderId) {
        return jdbc.sql(LATEST_FOR_ORDER).param("orderId", orderId).query(ROW).optional();
    }

    /** Each of these orders' latest attempt, by order id; an order without any attempt is absent. */
    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    Map<Long, Attempt> latestForOrders(Collection<Long> orderIds) {
        if (orderIds.isEmpty()) {
            return Map.of();
        }
        return jdbc.sql(LATEST_FOR_ORDERS).param("orderIds", orderIds).query(ROW).list().stream()
                .collect(Collectors.toMap(Attempt::orderId, Function.identity()));
    }

    /** The e-mail erasure's copy in {@code psp_attempt} ({@link #ERASE_REQUEST_EMAIL}), in its transaction. */
    @Override
    @Transactional(propagation = Propagation.MANDATORY)
    public int eraseCustomerEmails(List<Long> orderIds) {
        return jdbc.sql(ERASE_REQUEST_EMAIL).param("orderIds", orderIds.toArray(Long[]::new)).update();
    }

    /** IN_FLIGHT → UNKNOWN. False when someone (webhook, reconciler) settled it first. */
    @Override
    public boolean markUnknown(long id) {
        return single(jdbc.sql(MARK_UNKNOWN).param("id", id).update());
    }

    /**
     * Stores the PSP's payment id and redirect; the attempt as it now is, or empty when it is already
     * FAILED (the row is returned so the owner's answer needs no re-read).
     */
    Optional<Attempt> promoteReady(long id, String paymentId, String redirectUrl) {
        return jdbc.sql(PROMOTE_READY)
                .param("id", id).param("paymentId", paymentId).param("redirectUrl", redirectUrl)
                .query(ROW).optional();
    }

    /**
     * Marks a confirmed refusal; the attempt as it now is, or empty when it had left the states this
     * reason may end. {@code declined} may also end a READY attempt (the customer was declined on the
     * hosted page); {@code rejected} (a 4xx to our POST) only ends an open call.
     */
    Optional<Attempt> markFailed(long id, FailureReason reason, String paymentId, String errorCode,
            String errorMessage) {
        List<String> from = reason == FailureReason.DECLINED ? List.of("IN_FLIGHT", "UNKNOWN", "READY")
                : List.of("IN_FLIGHT", "UNKNOWN");
        return jdbc.sql(MARK_FAILED)
                .param("id", id).param("reason", reason.column()).param("paymentId", paymentId)
                .param("errorCode", errorCode).param("errorMessage", truncate(errorMessage)).param("from", from)
                .query(ROW).optional();
    }

    /** An operator closes an UNKNOWN attempt the PSP has confirmed it never saw. */
    boolean abandon(String referenceId, String who, String reason) {
        return single(jdbc.sql(ABANDON).param("referenceId", referenceId).param("who", who).param("reason", reason)
                .update());
    }

    /**
     * Remembers the payment id of an attempt that is already closed (FAILED), so the id finds it. Zero rows
     * means it already has one: this payment's (a repeat) or another's (two payments under one reference).
     */
    Link linkPayment(long id, String paymentId) {
        if (single(jdbc.sql(LINK_PAYMENT).param("id", id).param("paymentId", paymentId).update())) {
            return Link.LINKED;
        }
        boolean same = jdbc.sql(LINKED_TO).param("id", id).param("paymentId", paymentId).query(Boolean.class)
                .optional().orElseThrow(() -> new IllegalStateException("psp_attempt " + id + " is gone"));
        return same ? Link.ALREADY_LINKED : Link.LINKED_TO_ANOTHER;
    }

    /**
     * Replaces the attempt's payment id {@code provisionalId} (as the caller read it) by {@code paymentId}, in
     * any state. False when the attempt no longer holds {@code provisionalId}: someone moved it first, or it
     * holds another id.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    boolean supersedePayment(long id, String provisionalId, String paymentId) {
        return single(jdbc.sql(SUPERSEDE_PAYMENT).param("id", id).param("provisionalId", provisionalId)
                .param("paymentId", paymentId).update());
    }

    /** What {@link #linkPayment} found. */
    enum Link {
        LINKED, ALREADY_LINKED, LINKED_TO_ANOTHER
    }

    /** IN_FLIGHT and UNKNOWN attempts, oldest first, for the operators' list. */
    @Override
    @Transactional(readOnly = true)
    public List<Unresolved> unresolved(int limit) {
        return jdbc.sql(UNRESOLVED).param("limit", limit)
                .query((rs, n) -> new Unresolved("checkout", rs.getString("reference_id"),
                        rs.getString("order_ref"), rs.getString("state"), rs.getTimestamp("since").toInstant()))
                .list();
    }

    /** Abandoned attempts due for the watch (see {@code CLAIM_ABANDONED}). */
    List<Attempt> claimAbandoned(Duration watch, Duration grace, int limit) {
        return jdbc.sql(CLAIM_ABANDONED).param("watchSeconds", watch.toSeconds()).param("graceSeconds", grace.toSeconds())
                .param("limit", limit).query(WITH_PAYER).list();
    }

    /** The PSP showed the abandoned attempt's payment as final and it was applied: no more polls. */
    boolean closeWatch(long id) {
        return single(jdbc.sql(CLOSE_WATCH).param("id", id).update());
    }

    /** Open UNKNOWN attempts and the age in seconds of the oldest, for the gauges. */
    @Override
    @Transactional(readOnly = true)
    public Optional<OpenRows> unknownRows() {
        return Optional.of(jdbc.sql(OPEN_UNKNOWN_STATS)
                .query((rs, n) -> new OpenRows(rs.getDouble("open"), rs.getDouble("oldest"))).single());
    }

    private static String truncate(String message) {
        return message == null || message.length() <= 500 ? message : message.substring(0, 500);
    }

    private static boolean single(int rows) {
        return Rows.atMostOne(rows, "psp_attempt");
    }

    private static Attempt map(ResultSet rs, int row) throws SQLException {
        return new Attempt(rs.getLong("id"), rs.getLong("order_id"), rs.getString("reference_id"),
                AttemptState.valueOf(rs.getString("state")), rs.getBigDecimal("amount"), rs.getString("currency"),
                rs.getString("return_url"), rs.getString("psp_payment_id"), rs.getString("redirect_url"),
                rs.getString("error_code"), rs.getString("error_message"), rs.getString("failure_reason"),
                rs.getLong("lease_version"), rs.getString("psp_request"));
    }

    private static Attempt mapWithPayer(ResultSet rs, int row) throws SQLException {
        Attempt a = map(rs, row);
        return new Attempt(a.id(), a.orderId(), a.referenceId(), a.state(), a.amount(), a.currency(), a.returnUrl(),
                a.pspPaymentId(), a.redirectUrl(), a.errorCode(), a.errorMessage(), a.failureReason(),
                a.leaseVersion(), a.pspRequest(), new Attempt.Payer(rs.getString("payer_order_ref"),
                        rs.getString("payer_customer_ref"), rs.getString("payer_customer_email")));
    }

    record Claim(Attempt attempt, boolean owner) {
    }

    enum FailureReason {
        DECLINED, REJECTED, NOT_CREATED;

        String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
