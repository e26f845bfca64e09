package com.acme.payments.discrepancy;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** Owns {@code discrepancy}: one row per (PSP payment, kind), written only inside the business transaction. */
@Repository
@Transactional
class DiscrepancyStore {

    private static final String RECORD = """
            INSERT INTO discrepancy (kind, order_ref, psp_payment_id, amount, currency, detail)
            VALUES (:kind, :orderRef, :paymentId, :amount, :currency, :detail)
            ON CONFLICT (psp_payment_id, kind) DO NOTHING
            """;
    private static final String NEWEST = """
            SELECT * FROM discrepancy ORDER BY detected_at DESC, id DESC LIMIT :limit
            """;

    private final JdbcClient jdbc;

    DiscrepancyStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** True only for the first record of this payment and kind. */
    @Transactional(propagation = Propagation.MANDATORY)
    boolean record(Discrepancy discrepancy) {
        int rows = jdbc.sql(RECORD).param("kind", discrepancy.kind().value())
                .param("orderRef", discrepancy.orderRef()).param("paymentId", discrepancy.pspPaymentId())
                .param("amount", discrepancy.amount()).param("currency", discrepancy.currency())
                .param("detail", discrepancy.detail()).update();
        if (rows > 1) {
            throw new IllegalStateException("discrepancy insert wrote " + rows + " rows");
        }
        return rows == 1;
    }

    @Transactional(readOnly = true)
    List<Discrepancy> newest(int limit) {
        return jdbc.sql(NEWEST).param("limit", limit).query(DiscrepancyStore::map).list();
    }

    private static Discrepancy map(ResultSet rs, int row) throws SQLException {
        return new Discrepancy(DiscrepancyKind.valueOf(rs.getString("kind").toUpperCase(java.util.Locale.ROOT)),
                rs.getString("order_ref"), rs.getString("psp_payment_id"), rs.getBigDecimal("amount"),
                rs.getString("currency"), rs.getString("detail"), rs.getTimestamp("detected_at").toInstant());
    }
}
