package com.acme.payments.bench;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.acme.payments.support.TestDatabase;

/**
 * {@code EXPLAIN (ANALYZE, BUFFERS)} of the hot statements, read by reflection from the Stores' own
 * SQL constants (so the plan is of the statement that ships), with literal values for the named
 * parameters, each inside a transaction that is rolled back.
 */
final class Plans {

    /** class, constant, what it is. */
    private static final List<String[]> STATEMENTS = List.of(
            new String[] { "com.acme.payments.checkout.AttemptStore", "CLAIM", "checkout claim (insert, open-attempt conflict)" },
            new String[] { "com.acme.payments.checkout.AttemptStore", "BY_PAYMENT", "webhook: attempt by PSP payment id" },
            new String[] { "com.acme.payments.checkout.AttemptStore", "AGE_IN_FLIGHT", "sweep: age IN_FLIGHT" },
            new String[] { "com.acme.payments.checkout.AttemptStore", "CLAIM_UNKNOWN", "sweep claim (UNKNOWN attempts)" },
            new String[] { "com.acme.payments.refund.RefundStore", "CLAIM_UNKNOWN", "refund sweep claim" },
            new String[] { "com.acme.payments.psp.InboxStore", "UPSERT", "webhook inbox upsert" },
            new String[] { "com.acme.payments.psp.InboxStore", "LEASE_DUE", "inbox replay claim" },
            new String[] { "com.acme.payments.order.OrderStore", "CLAIM_STRAGGLERS", "straggler claim" },
            new String[] { "com.acme.payments.outbox.OutboxStore", "CLAIM", "outbox relay claim" },
            new String[] { "com.acme.payments.stripe.ProcessedEventStore", "CLAIM", "Stripe event claim" },
            new String[] { "com.acme.payments.stripe.ProcessedEventStore", "COMPLETE", "Stripe event completion" });

    private static final Pattern PARAM = Pattern.compile("(?<![:\\w]):(\\w+)");

    private Plans() {
    }

    /** The plans, headed by class, constant and the literal parameters used. */
    static String explainAll(Map<String, String> values) throws Exception {
        StringBuilder out = new StringBuilder();
        for (String[] s : STATEMENTS) {
            out.append("-- ").append(s[0].substring(s[0].lastIndexOf('.') + 1)).append('.').append(s[1]).append(": ")
                    .append(s[2]).append('\n');
            try {
                String literal = bind(constant(s[0], s[1]), values);
                out.append(literal.strip()).append("\n\n").append(explain(literal)).append('\n');
            } catch (Exception renamedOrNewParameter) {
                // the Stores change under other work; one statement that cannot be explained must not end the run
                out.append("(not explained: ").append(renamedOrNewParameter).append(")\n\n");
            }
        }
        return out.toString();
    }

    static String constant(String className, String field) throws Exception {
        Field f = Class.forName(className).getDeclaredField(field);
        f.setAccessible(true);
        return (String) f.get(null);
    }

    static String bind(String sql, Map<String, String> values) {
        Matcher m = PARAM.matcher(sql);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException("no value for :" + m.group(1));
            }
            m.appendReplacement(b, Matcher.quoteReplacement(v));
        }
        m.appendTail(b);
        return b.toString();
    }

    private static String explain(String sql) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (Connection c = TestDatabase.connect()) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN (ANALYZE, BUFFERS) " + sql)) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            } finally {
                c.rollback();
            }
        }
        return plan.toString();
    }

    static Map<String, String> defaults() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("referenceId", "'explain-ref'");
        v.put("amount", "10.00");
        v.put("currency", "'EUR'");
        v.put("returnUrl", "'https://shop.test/r'");
        v.put("leaseSeconds", "120");
        v.put("limit", "100");
        v.put("ageSeconds", "300");
        v.put("state", "'COMPLETED'");
        v.put("paymentType", "'DEPOSIT'");
        v.put("payload", "'{}'");
        v.put("minAgeSeconds", "300");
        v.put("graceSeconds", "900");
        v.put("owner", "'explain'");
        v.put("kinds", "'order_paid', 'renewal_notice'");
        v.put("routeKinds", "'order_paid', 'renewal_notice'");
        v.put("batchSize", "100");
        v.put("id", "'evt_h1_1'");
        v.put("type", "'invoice.paid'");
        v.put("token", "'t'");
        v.put("expiryMs", "300000");
        return v;
    }
}
