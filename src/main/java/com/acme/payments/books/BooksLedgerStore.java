package com.acme.payments.books;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Our side of the books, read only: the attempts ({@code psp_attempt} with their {@code orders}), second
 * charges ({@code duplicate_charge}) and refunds ({@code psp_refund_attempt}) a reconciliation holds against
 * the PSP's. Owns no table: every read here is of another feature's rows, named in TableOwnershipTests.
 * A payment's state is its order's when the order booked it, a second charge's when it is one, else the
 * attempt's; a refund's is its row's.
 */
@Repository
@Transactional(readOnly = true)
class BooksLedgerStore {

    private static final String PAYMENT_COLUMNS = """
            SELECT a.psp_payment_id, a.reference_id, a.state AS attempt_state, a.amount, a.currency, o.order_ref,
                   o.status AS order_status, o.psp_payment_id AS order_payment, o.paid_amount, o.paid_currency,
                   dc.amount AS charge_amount, dc.currency AS charge_currency
            FROM psp_attempt a JOIN orders o ON o.id = a.order_id
            LEFT JOIN duplicate_charge dc ON dc.psp_payment_id = a.psp_payment_id
            """;
    /** The attempts created in the window (through psp_attempt_created). */
    private static final String PAYMENTS_IN_WINDOW = PAYMENT_COLUMNS + """
            WHERE a.created_at >= :from AND a.created_at < :to
            """;
    private static final String PAYMENTS_BY_ID = PAYMENT_COLUMNS + """
            WHERE a.psp_payment_id = ANY (CAST(:ids AS text[])) OR a.reference_id = ANY (CAST(:refs AS text[]))
            """;
    /** Second charges no attempt holds (a second payment under one Gateway reference), detected in the window. */
    private static final String CHARGES_IN_WINDOW = """
            SELECT dc.psp_payment_id, dc.amount, dc.currency, o.order_ref
            FROM duplicate_charge dc JOIN orders o ON o.id = dc.order_id
            WHERE dc.detected_at >= :from AND dc.detected_at < :to
              AND NOT EXISTS (SELECT 1 FROM psp_attempt a WHERE a.psp_payment_id = dc.psp_payment_id)
            """;
    private static final String CHARGES_BY_ID = """
            SELECT dc.psp_payment_id, dc.amount, dc.currency, o.order_ref
            FROM duplicate_charge dc JOIN orders o ON o.id = dc.order_id
            WHERE dc.psp_payment_id = ANY (CAST(:ids AS text[]))
              AND NOT EXISTS (SELECT 1 FROM psp_attempt a WHERE a.psp_payment_id = dc.psp_payment_id)
            """;
    private static final String REFUND_COLUMNS = """
            SELECT r.psp_payment_id, r.reference_id, r.state, r.psp_state, r.amount, r.currency, o.order_ref
            FROM psp_refund_attempt r JOIN orders o ON o.id = r.order_id
            """;
    /** The refunds created in the window (through psp_refund_attempt_created). */
    private static final String REFUNDS_IN_WINDOW = REFUND_COLUMNS + """
            WHERE r.created_at >= :from AND r.created_at < :to
            """;
    private static final String REFUNDS_BY_ID = REFUND_COLUMNS + """
            WHERE r.psp_payment_id = ANY (CAST(:ids AS text[])) OR r.reference_id = ANY (CAST(:refs AS text[]))
            """;
    /** The order of each of these payments of ours (the parents of refunds we do not know). */
    private static final String ORDERS_OF_PAYMENTS = """
            SELECT a.psp_payment_id AS payment, o.order_ref FROM psp_attempt a JOIN orders o ON o.id = a.order_id
            WHERE a.psp_payment_id = ANY (CAST(:ids AS text[]))
            UNION
            SELECT dc.psp_payment_id, o.order_ref FROM duplicate_charge dc JOIN orders o ON o.id = dc.order_id
            WHERE dc.psp_payment_id = ANY (CAST(:ids AS text[]))
            UNION
            SELECT o.psp_payment_id, o.order_ref FROM orders o WHERE o.psp_payment_id = ANY (CAST(:ids AS text[]))
            """;

    private final JdbcClient jdbc;

    BooksLedgerStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Every payment and refund of ours created (a second charge: detected) in {@code [from, to)}. */
    List<OurRecord> inWindow(Instant from, Instant to) {
        OffsetDateTime f = from.atOffset(ZoneOffset.UTC);
        OffsetDateTime t = to.atOffset(ZoneOffset.UTC);
        List<OurRecord> ours = new ArrayList<>();
        ours.addAll(jdbc.sql(PAYMENTS_IN_WINDOW).param("from", f).param("to", t).query(BooksLedgerStore::payment).list());
        ours.addAll(jdbc.sql(CHARGES_IN_WINDOW).param("from", f).param("to", t).query(BooksLedgerStore::charge).list());
        ours.addAll(jdbc.sql(REFUNDS_IN_WINDOW).param("from", f).param("to", t).query(BooksLedgerStore::refund).list());
        return ours;
    }

    /** Ours among these PSP ids or our references, whenever they were created. */
    List<OurRecord> byIds(Collection<String> ids, Collection<String> references) {
        String[] idArray = ids.toArray(String[]::new);
        String[] refArray = references.toArray(String[]::new);
        List<OurRecord> ours = new ArrayList<>();
        ours.addAll(jdbc.sql(PAYMENTS_BY_ID).param("ids", idArray).param("refs", refArray)
                .query(BooksLedgerStore::payment).list());
        ours.addAll(jdbc.sql(CHARGES_BY_ID).param("ids", idArray).query(BooksLedgerStore::charge).list());
        ours.addAll(jdbc.sql(REFUNDS_BY_ID).param("ids", idArray).param("refs", refArray)
                .query(BooksLedgerStore::refund).list());
        return ours;
    }

    /** {@code [paymentId, orderRef]} of those of these PSP payment ids that are ours. */
    List<String[]> ordersOf(Set<String> paymentIds) {
        return jdbc.sql(ORDERS_OF_PAYMENTS).param("ids", paymentIds.toArray(String[]::new))
                .query((rs, n) -> new String[] { rs.getString("payment"), rs.getString("order_ref") }).list();
    }

    private static OurRecord payment(ResultSet rs, int n) throws SQLException {
        String id = rs.getString("psp_payment_id");
        String orderRef = rs.getString("order_ref");
        BigDecimal amount = rs.getBigDecimal("amount");
        String currency = rs.getString("currency");
        if (id != null && id.equals(rs.getString("order_payment"))) {
            String status = rs.getString("order_status");
            return switch (status) {
                case "PAID" -> new OurRecord(false, id, rs.getString("reference_id"), orderRef, status, true, false,
                        rs.getBigDecimal("paid_amount"), rs.getString("paid_currency"));
                case "AUTHORIZED" -> new OurRecord(false, id, rs.getString("reference_id"), orderRef, status, true,
                        false, amount, currency);
                default -> new OurRecord(false, id, rs.getString("reference_id"), orderRef, status, false, false,
                        amount, currency);
            };
        }
        if (rs.getBigDecimal("charge_amount") != null) {
            return new OurRecord(false, id, rs.getString("reference_id"), orderRef, "SECOND_CHARGE", true, false,
                    rs.getBigDecimal("charge_amount"), rs.getString("charge_currency"));
        }
        return new OurRecord(false, id, rs.getString("reference_id"), orderRef, "ATTEMPT_" + rs.getString("attempt_state"),
                false, false, amount, currency);
    }

    private static OurRecord charge(ResultSet rs, int n) throws SQLException {
        return new OurRecord(false, rs.getString("psp_payment_id"), null, rs.getString("order_ref"), "SECOND_CHARGE",
                true, false, rs.getBigDecimal("amount"), rs.getString("currency"));
    }

    private static OurRecord refund(ResultSet rs, int n) throws SQLException {
        String state = rs.getString("state");
        String pspState = rs.getString("psp_state");
        boolean pspFailed = "DECLINED".equals(pspState) || "CANCELLED".equals(pspState);
        boolean booked = "DONE".equals(state) && !pspFailed;
        boolean settling = booked && !"COMPLETED".equals(pspState);
        return new OurRecord(true, rs.getString("psp_payment_id"), rs.getString("reference_id"), rs.getString("order_ref"),
                pspState == null ? state : state + "/" + pspState, booked, settling, rs.getBigDecimal("amount"),
                rs.getString("currency"));
    }
}
