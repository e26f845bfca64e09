package com.acme.payments.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import com.acme.payments.support.TestDatabase;

/** The benchmark's rows, written by SQL: history, webhook targets, UNKNOWN attempts for the sweep. */
final class Seeder {

    static final String[] TABLES = { "orders", "psp_attempt", "psp_webhook_event", "outbox", "psp_refund_attempt",
            "processed_webhook_events", "billing_grant" };

    /**
     * {@code n} settled orders as years of business leave them: PAID order, READY attempt, processed
     * inbox receipt, delivered outbox row and dedup record, a DONE refund; and {@code n} completed
     * Stripe events with their user, subscription mirror and grant.
     */
    static void history(String prefix, int n) throws SQLException {
        exec("""
                WITH o AS (
                  INSERT INTO orders (order_ref, status, amount, currency, paid_amount, paid_currency, refunded_amount,
                                      psp_payment_id, customer_ref, client_token_hash, created_at, updated_at)
                  SELECT '%1$s' || g, 'PAID', 10.00, 'EUR', 10.00, 'EUR', 1.00, 'pay_%1$s' || g, 'cust-' || g,
                         sha256(convert_to('%1$s' || g, 'UTF8')), now() - interval '30 days', now() - interval '30 days'
                    FROM generate_series(1, %2$d) g
                  RETURNING id, order_ref, psp_payment_id),
                a AS (
                  INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_payment_id,
                                           redirect_url, created_at, updated_at)
                  SELECT id, 'chk_' || order_ref, 'READY', 10.00, 'EUR', 'https://shop.test/r', psp_payment_id,
                         'https://psp.test/hosted/' || psp_payment_id, now() - interval '30 days', now() - interval '30 days'
                    FROM o RETURNING order_id),
                r AS (
                  INSERT INTO psp_refund_attempt (order_id, refund_key, reference_id, amount, currency, state, psp_payment_id,
                                                  created_at, updated_at)
                  SELECT id, 'rk-' || order_ref, 'rfd_' || order_ref, 1.00, 'EUR', 'DONE', 'r' || psp_payment_id,
                         now() - interval '29 days', now() - interval '29 days'
                    FROM o RETURNING order_id),
                w AS (
                  INSERT INTO psp_webhook_event (payment_id, state, payment_type, reference_id, payload, first_received_at,
                                                 received_at, processed_at, processed_reason)
                  SELECT psp_payment_id, 'COMPLETED', 'DEPOSIT', 'chk_' || order_ref,
                         jsonb_build_object('id', psp_payment_id, 'state', 'COMPLETED'),
                         now() - interval '30 days', now() - interval '30 days', now() - interval '30 days', 'applied'
                    FROM o RETURNING id),
                x AS (
                  INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, state, attempts,
                                      created_at, delivered_at, settled_as, next_attempt_at)
                  SELECT 'order_paid', 'order', order_ref, psp_payment_id || ':order_paid',
                         jsonb_build_object('orderRef', order_ref, 'pspPaymentId', psp_payment_id), 'delivered', 1,
                         now() - interval '30 days', now() - interval '30 days', 'sent', now() - interval '30 days'
                    FROM o RETURNING id, idempotency_key)
                INSERT INTO outbox_dedup (idempotency_key, state, outbox_id, lease_version, claimed_at, sent_at)
                SELECT idempotency_key, 'sent', id, 1, now() - interval '30 days', now() - interval '30 days' FROM x
                """.formatted(prefix, n));
        exec("""
                WITH e AS (
                  INSERT INTO processed_webhook_events (id, source, event_type, state, claim_token, claimed_at, completed_at)
                  SELECT 'evt_%1$s' || g, 'stripe', 'invoice.paid', 'completed', 't', now() - interval '20 days',
                         now() - interval '20 days'
                    FROM generate_series(1, %2$d) g RETURNING id),
                u AS (
                  INSERT INTO billing_user (user_id, credits) SELECT 'user_' || id, 500 FROM e RETURNING user_id),
                s AS (
                  INSERT INTO billing_subscription (subscription_id, user_id, status, current_period_start, current_period_end)
                  SELECT 'sub_' || user_id, user_id, 'active', 1738281600, 1740873600 FROM u RETURNING subscription_id)
                INSERT INTO billing_grant (subscription_id, period_start, period_end, source, event_id, credits)
                SELECT subscription_id, 1738281600, 1740873600, 'webhook', 'evt_x', 500 FROM s
                """.formatted(prefix, n));
        exec("ANALYZE");
    }

    /** {@code n} orders PROCESSING with a READY attempt linked to a PSP payment: the targets of webhooks. */
    static void webhookTargets(String prefix, int n) throws SQLException {
        exec("""
                WITH o AS (
                  INSERT INTO orders (order_ref, status, amount, currency, psp_payment_id, customer_ref, client_token_hash)
                  SELECT '%1$s' || g, 'PROCESSING', 10.00, 'EUR', 'pay_%1$s' || g, 'cust-' || g,
                         sha256(convert_to('%1$s' || g, 'UTF8'))
                    FROM generate_series(1, %2$d) g
                  RETURNING id, order_ref, psp_payment_id)
                INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_payment_id,
                                         redirect_url)
                SELECT id, 'chk_' || order_ref, 'READY', 10.00, 'EUR', 'https://shop.test/r', psp_payment_id,
                       'https://psp.test/hosted/' || psp_payment_id FROM o
                """.formatted(prefix, n));
        exec("ANALYZE orders; ANALYZE psp_attempt");
    }

    /**
     * {@code n} orders with an UNKNOWN attempt {@code chk_<prefix><g>}, touched just now: inside the
     * sweep's lease, so no sweeper claims them until {@link #releaseUnknown} ages them.
     */
    static void unknownAttempts(String prefix, int n) throws SQLException {
        exec("""
                WITH o AS (
                  INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash)
                  SELECT '%1$s' || g, 'AWAITING_PAYMENT', 10.00, 'EUR', 'cust-' || g, sha256(convert_to('%1$s' || g, 'UTF8'))
                    FROM generate_series(1, %2$d) g
                  RETURNING id, order_ref)
                INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url)
                SELECT id, 'chk_' || order_ref, 'UNKNOWN', 10.00, 'EUR', 'https://shop.test/r' FROM o
                """.formatted(prefix, n));
        exec("ANALYZE orders; ANALYZE psp_attempt");
    }

    static void releaseUnknown(String prefix) throws SQLException {
        exec("UPDATE psp_attempt SET updated_at = now() - interval '1 hour' WHERE state = 'UNKNOWN' AND reference_id LIKE 'chk_"
                + prefix + "%'");
    }

    static long count(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static long count(String sql, String param) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, param);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    static Map<String, Long> tableRows() throws SQLException {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : TABLES) {
            rows.put(table, count("SELECT count(*) FROM " + table));
        }
        return rows;
    }

    /**
     * Inserts, updates and HOT updates per table (pg_stat_user_tables). Other backends flush their counters at
     * most once a second and otherwise when idle for 10 s, so callers wait 11 s before reading an "after".
     */
    static Map<String, long[]> tupleStats(java.util.List<String> tables) throws SQLException {
        Map<String, long[]> stats = new LinkedHashMap<>();
        try (Connection c = connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables")) {
            while (rs.next()) {
                if (tables.contains(rs.getString(1))) {
                    stats.put(rs.getString(1), new long[] { rs.getLong(2), rs.getLong(3), rs.getLong(4) });
                }
            }
        }
        return stats;
    }

    /** A new connection, retried: the shared server may be full of other suites' pools for a moment. */
    static Connection connect() throws SQLException {
        for (int attempt = 1;; attempt++) {
            try {
                return TestDatabase.connect();
            } catch (SQLException refused) {
                if (attempt == 10 || !"53300".equals(refused.getSQLState())) { // 53300: too many connections
                    throw refused;
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw refused;
                }
            }
        }
    }

    static void exec(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
