package com.acme.payments.order;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.money.Amounts;

/**
 * Owns {@code orders}: creation, look-ups, the conditional status moves and the refund reservation on
 * {@code refunded_amount}. Other features change an order only through these methods; the ones marked
 * {@code Propagation.MANDATORY} only ever join the caller's transaction (a checkout claim, a refund claim
 * or settlement).
 * Look-ups of one statement are {@code SUPPORTS}: alone, one statement is its own snapshot and a read-only
 * transaction would only add a COMMIT round trip; inside a caller's transaction they join it.
 */
@Repository
@Transactional
public class OrderStore {

    private static final String INSERT = """
            INSERT INTO orders (order_ref, status, amount, currency, customer_ref, customer_email, client_token_hash)
            VALUES (:orderRef, 'AWAITING_PAYMENT', :amount, :currency, :customerRef, :customerEmail, :tokenHash)
            ON CONFLICT (order_ref) DO NOTHING
            RETURNING *
            """;
    /**
     * Erases the customer's e-mail of orders unchanged for the retention (the index
     * {@code orders_customer_email_held}); nothing else of the order moves, not even {@code updated_at}: the
     * erasure is no change of the order's own, and the money columns stay as they are.
     */
    private static final String ERASE_CUSTOMER_EMAIL = """
            UPDATE orders SET customer_email = NULL
             WHERE id IN (SELECT id FROM orders
                           WHERE customer_email IS NOT NULL
                             AND updated_at < now() - make_interval(secs => :retentionSeconds)
                           LIMIT :batchSize FOR UPDATE SKIP LOCKED)
            RETURNING id
            """;
    private static final String BY_REF = "SELECT * FROM orders WHERE order_ref = :orderRef";
    private static final String BY_ID = "SELECT * FROM orders WHERE id = :id";
    /** The order a PSP payment paid or last moved (the index {@code orders_psp_payment}). */
    private static final String BY_PAYMENT = """
            SELECT * FROM orders WHERE psp_payment_id = :paymentId ORDER BY id DESC LIMIT 1
            """;
    private static final String TOKEN_EXISTS = "SELECT EXISTS (SELECT 1 FROM orders WHERE client_token_hash = :hash)";

    /**
     * Which payment wins, decided here once and appended to every status move below: the order moves only
     * for the payment of its newest attempt ({@code :attemptId}), and only while that attempt is not
     * abandoned. A late result of an earlier (or abandoned) attempt's payment matches zero rows and never
     * moves or relinks the order; a COMPLETED one is a second charge (DepositApplier). It is part of the
     * UPDATE, not a read before it: under READ COMMITTED a newer attempt (or an abandon) committed between
     * two statements would let an old result move the order.
     */
    private static final String NEWEST_ATTEMPT_WINS = """
               AND NOT EXISTS (SELECT 1 FROM psp_attempt a WHERE a.order_id = :id
                                AND (a.id > :attemptId OR (a.id = :attemptId AND a.failure_reason = 'abandoned')))
            """;

    /** PAID books what the PSP says was paid, never what we asked for: the final amount may differ. */
    private static final String TO_PAID = """
            UPDATE orders
               SET status = 'PAID', paid_amount = :amount, paid_currency = :currency,
                   psp_payment_id = :paymentId, error_code = NULL, error_message = NULL, updated_at = now()
             WHERE id = :id AND status IN (:from)
            """ + NEWEST_ATTEMPT_WINS + """
            RETURNING *
            """;
    /**
     * The two moves below return the order as moved and the status it left ({@code before}, the same row read
     * in the statement's snapshot): the shop's event tells a void (AUTHORIZED → cancelled) from a failed payment.
     * Should another transaction move the order between that snapshot and this row lock, {@code before} is the
     * older status; the status test is re-checked on the newest row, so only the reported origin can lag.
     */
    private static final String TO_AUTHORIZED = """
            UPDATE orders o
               SET status = 'AUTHORIZED', psp_payment_id = :paymentId, updated_at = now()
              FROM orders before
             WHERE o.id = :id AND before.id = o.id AND o.status IN (:from)
            """ + NEWEST_ATTEMPT_WINS + """
            RETURNING o.*, before.status AS before_status
            """;
    /** A late refusal of an old attempt must not fail a retry. */
    private static final String TO_FAILED = """
            UPDATE orders o
               SET status = 'PAYMENT_FAILED', psp_payment_id = coalesce(:paymentId, o.psp_payment_id),
                   error_code = :errorCode, error_message = :errorMessage, updated_at = now()
              FROM orders before
             WHERE o.id = :id AND before.id = o.id AND o.status IN (:from)
            """ + NEWEST_ATTEMPT_WINS + """
            RETURNING o.*, before.status AS before_status
            """;
    private static final String TO_PROCESSING = """
            UPDATE orders
               SET status = 'PROCESSING', psp_payment_id = :paymentId, updated_at = now()
             WHERE id = :id AND status IN (:from)
            """ + NEWEST_ATTEMPT_WINS;
    private static final String LOCK_FOR_REFUND = "SELECT status, paid_currency FROM orders WHERE id = :id FOR UPDATE";
    /** Self-serialising: two reservations can never together exceed what was paid. */
    private static final String RESERVE_REFUND = """
            UPDATE orders SET refunded_amount = refunded_amount + :amount, updated_at = now()
             WHERE id = :id AND status = 'PAID' AND refunded_amount + :amount <= paid_amount
            """;
    private static final String RELEASE_REFUND = """
            UPDATE orders SET refunded_amount = refunded_amount - :amount, updated_at = now()
             WHERE id = :id AND refunded_amount >= :amount
            """;
    /**
     * A refund made at the PSP by someone else: the money has left, so it is booked whatever the remainder
     * (the caller reports an excess); returns the order as it now stands.
     */
    private static final String BOOK_REFUND_MADE_ELSEWHERE = """
            UPDATE orders SET refunded_amount = refunded_amount + :amount, updated_at = now()
             WHERE id = :id
            RETURNING *
            """;
    private static final String REOPEN_FAILED = """
            UPDATE orders SET status = 'AWAITING_PAYMENT', updated_at = now()
             WHERE id = :id AND status = 'PAYMENT_FAILED'
            """;

    /**
     * Orders still waiting for a final state past the grace period, leased by last_polled_at (database
     * clock). Least recently polled first: orders that stay non-final for good keep an old updated_at
     * and would otherwise be claimed every time, starving newer stragglers. The claimed orders come back
     * whole: the poll asks about each without reading it again.
     */
    private static final String CLAIM_STRAGGLERS = """
            UPDATE orders SET last_polled_at = now()
             WHERE id IN (SELECT id FROM orders
                           WHERE status IN ('PROCESSING', 'AUTHORIZED')
                             AND updated_at < now() - :graceSeconds * interval '1 second'
                             AND (last_polled_at IS NULL OR last_polled_at < now() - :graceSeconds * interval '1 second')
                           ORDER BY last_polled_at NULLS FIRST, updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            RETURNING *
            """;

    /** Package-private: the order list (OrderListStore) maps the same rows. */
    static final RowMapper<Order> ROW = OrderStore::map;

    private final JdbcClient jdbc;

    OrderStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts the order; empty when the reference exists already (the caller compares and answers). */
    public Optional<Order> create(NewOrder order, byte[] tokenHash) {
        return jdbc.sql(INSERT)
                .param("orderRef", order.orderRef())
                .param("amount", order.amount())
                .param("currency", order.currency())
                .param("customerRef", order.customerRef())
                .param("customerEmail", order.customerEmail())
                .param("tokenHash", tokenHash)
                .query(ROW).optional();
    }

    /**
     * Erases the e-mail of up to {@code batchSize} orders unchanged for the retention; returns their ids (the
     * caller erases the copies of those e-mails in the same transaction).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    List<Long> eraseCustomerEmails(Duration retention, int batchSize) {
        return jdbc.sql(ERASE_CUSTOMER_EMAIL).param("retentionSeconds", retention.toSeconds())
                .param("batchSize", batchSize).query(Long.class).list();
    }

    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    public Optional<Order> findByRef(String orderRef) {
        return jdbc.sql(BY_REF).param("orderRef", orderRef).query(ROW).optional();
    }

    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    public Optional<Order> findById(long id) {
        return jdbc.sql(BY_ID).param("id", id).query(ROW).optional();
    }

    /** The order whose booked (or latest reported) payment is this provider id, e.g. a Stripe PaymentIntent. */
    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    public Optional<Order> findByPaymentId(String paymentId) {
        return jdbc.sql(BY_PAYMENT).param("paymentId", paymentId).query(ROW).optional();
    }

    /** Whether some order's client token hashes to this (a valid token for another order: 403, not 401). */
    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    public boolean tokenExists(byte[] hash) {
        return jdbc.sql(TOKEN_EXISTS).param("hash", hash).query(Boolean.class).single();
    }

    /**
     * Applies the move a payment report asks for, conditionally: the order as this call moved it and the status
     * it left, empty when the order was already past it.
     */
    public Optional<Moved> apply(long orderId, long attemptId, PaymentReport report) {
        if (report.move() == PaymentTransition.TO_PAID) {
            return markPaid(orderId, attemptId, report).map(paid -> new Moved(paid, null));
        }
        if (report.move() == PaymentTransition.TO_PROCESSING) {
            throw new IllegalArgumentException("TO_PROCESSING goes through markProcessing");
        }
        JdbcClient.StatementSpec statement = report.move() == PaymentTransition.TO_AUTHORIZED
                ? jdbc.sql(TO_AUTHORIZED).param("paymentId", report.paymentId())
                : jdbc.sql(TO_FAILED)
                        .param("paymentId", report.paymentId()) // the failure is this payment's, not an earlier attempt's
                        .param("errorCode", report.errorCode())
                        .param("errorMessage", report.errorMessage());
        List<Moved> moved = statement.param("id", orderId).param("attemptId", attemptId)
                .param("from", report.move().fromNames())
                .query((rs, n) -> new Moved(map(rs, n), OrderStatus.valueOf(rs.getString("before_status")))).list();
        single(moved.size());
        return moved.stream().findFirst();
    }

    /** Moves a payment under way to PROCESSING (at most); true when this call moved it. */
    public boolean markProcessing(long orderId, long attemptId, PaymentReport report) {
        return single(jdbc.sql(TO_PROCESSING).param("paymentId", report.paymentId()).param("id", orderId)
                .param("attemptId", attemptId).param("from", PaymentTransition.TO_PROCESSING.fromNames()).update());
    }

    /**
     * The PAID move, conditionally: the order as this call moved it (the {@code order_paid} effect and the
     * shop's event need it, and RETURNING spares a re-read), empty when it was already past it.
     */
    public Optional<Order> markPaid(long orderId, long attemptId, PaymentReport report) {
        List<Order> moved = jdbc.sql(TO_PAID)
                .param("amount", Amounts.canonical(report.amount(), report.currency()))
                .param("currency", report.currency())
                .param("paymentId", report.paymentId())
                .param("id", orderId).param("attemptId", attemptId)
                .param("from", PaymentTransition.TO_PAID.fromNames())
                .query(ROW).list();
        single(moved.size());
        return moved.stream().findFirst();
    }

    /**
     * An order a payment moved, and the status it left ({@code from}; null for the PAID move, whose caller
     * needs it not).
     */
    public record Moved(Order order, OrderStatus from) {
    }

    /** Claims up to {@code limit} stragglers (see {@code CLAIM_STRAGGLERS}): the orders as the claim left them. */
    public List<Order> claimStragglers(Duration grace, int limit) {
        return jdbc.sql(CLAIM_STRAGGLERS).param("graceSeconds", grace.toSeconds()).param("limit", limit)
                .query(ROW).list();
    }

    /** A new checkout on a failed order makes it payable again (in the claim's transaction). */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean reopenIfFailed(long orderId) {
        return single(jdbc.sql(REOPEN_FAILED).param("id", orderId).update());
    }

    /**
     * Locks the order row for the rest of the caller's transaction (serialising every refund guard of the
     * order) and returns what a refund checks under that lock.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Locked lockForRefund(long orderId) {
        return jdbc.sql(LOCK_FOR_REFUND).param("id", orderId)
                .query((rs, n) -> new Locked(rs.getString("status"), rs.getString("paid_currency"))).single();
    }

    /** An order's status and paid currency, read under its row lock. */
    public record Locked(String status, String paidCurrency) {
    }

    /** Reserves a refund on a PAID order; false when it would exceed what was paid (or the order is not PAID). */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean reserveRefund(long orderId, BigDecimal amount) {
        return single(jdbc.sql(RESERVE_REFUND).param("id", orderId).param("amount", amount).update());
    }

    /** Gives a failed refund's reservation back; false when there is less reserved than that (a bug upstream). */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean releaseRefund(long orderId, BigDecimal amount) {
        return single(jdbc.sql(RELEASE_REFUND).param("id", orderId).param("amount", amount).update());
    }

    /** Books a refund made at the PSP by someone else, past the remainder if so; the order as it now stands. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Order bookRefundMadeElsewhere(long orderId, BigDecimal amount) {
        return jdbc.sql(BOOK_REFUND_MADE_ELSEWHERE).param("id", orderId).param("amount", amount).query(ROW).single();
    }

    private static boolean single(int rows) {
        if (rows > 1) {
            throw new IllegalStateException("expected at most one order row, updated " + rows);
        }
        return rows == 1;
    }

    private static Order map(ResultSet rs, int row) throws SQLException {
        return new Order(rs.getLong("id"), rs.getString("order_ref"), OrderStatus.valueOf(rs.getString("status")),
                rs.getBigDecimal("amount"), rs.getString("currency"), rs.getBigDecimal("paid_amount"),
                rs.getString("paid_currency"), rs.getBigDecimal("refunded_amount"), rs.getString("psp_payment_id"),
                rs.getString("error_code"), rs.getString("error_message"), rs.getString("customer_ref"),
                rs.getString("customer_email"), rs.getBytes("client_token_hash"),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }

    /** What the shop asked for, validated. */
    public record NewOrder(String orderRef, BigDecimal amount, String currency, String customerRef,
            String customerEmail) {
    }
}
