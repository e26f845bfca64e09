package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.acme.payments.chaos.Invariants.Check;

import tools.jackson.databind.JsonNode;

/**
 * The exits' invariants, checked against the database and the simulator after the run:
 * no order points at a payment other than its newest (non-abandoned) attempt's; every second charge the
 * service was told about, and every COMPLETED payment of an abandoned attempt (webhook or not: the
 * abandoned-attempt watch asks the PSP), is flagged exactly once, and nothing else is; every second charge is refunded
 * at most once at the PSP, and a DONE refund of one is a refund the PSP holds; a refund the PSP declined
 * is FAILED (the reservation check in {@link Invariants} then proves {@code refunded_amount} = DONE refunds
 * not declined + open reservations).
 */
final class ExitsInvariants {

    private record Attempt(long id, long orderId, String reference, String state, String failureReason) {
    }

    private record Order(long id, String ref, String status, String paymentId) {
    }

    private record Duplicate(long orderId, String paymentId, String refundReference, String refundState) {
    }

    private ExitsInvariants() {
    }

    /** The PSP payment ids recorded as second charges (the one-live-payment check leaves them out). */
    static Set<String> duplicatePaymentIds() throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection c = TestDatabaseName.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT psp_payment_id FROM duplicate_charge")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    static void check(JsonNode simPayments, JsonNode webhooks, List<Check> checks, Map<String, Long> facts)
            throws SQLException {
        Map<String, JsonNode> paymentById = new HashMap<>();
        List<JsonNode> refundPayments = new ArrayList<>();
        for (JsonNode p : simPayments.path("payments")) {
            paymentById.put(p.path("id").asString(), p);
            if (p.path("paymentType").asString().equals("REFUND")) {
                refundPayments.add(p);
            }
        }
        Set<String> toldCompleted = new HashSet<>();
        for (JsonNode w : webhooks) {
            int status = w.path("status").asInt(0);
            if (w.path("state").asString().equals("COMPLETED") && status >= 200 && status < 300) {
                toldCompleted.add(w.path("paymentId").asString());
            }
        }
        Map<Long, Order> orders = new HashMap<>();
        Map<String, Attempt> attemptByReference = new HashMap<>();
        Map<Long, Attempt> newest = new HashMap<>();
        List<Duplicate> duplicates = new ArrayList<>();
        Map<String, String> refundStateByReference = new HashMap<>();
        try (Connection c = TestDatabaseName.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT id, order_ref, status, psp_payment_id FROM orders")) {
                while (rs.next()) {
                    orders.put(rs.getLong(1), new Order(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)));
                }
            }
            try (ResultSet rs = s.executeQuery(
                    "SELECT id, order_id, reference_id, state, failure_reason FROM psp_attempt ORDER BY id")) {
                while (rs.next()) {
                    Attempt a = new Attempt(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getString(5));
                    attemptByReference.put(a.reference(), a);
                    newest.put(a.orderId(), a);
                }
            }
            try (ResultSet rs = s.executeQuery(
                    """
                    SELECT d.order_id, d.psp_payment_id, r.reference_id, r.state FROM duplicate_charge d
                      LEFT JOIN LATERAL (SELECT reference_id, state FROM psp_refund_attempt
                                          WHERE duplicate_charge_id = d.id
                                          ORDER BY state <> 'FAILED' DESC, id DESC LIMIT 1) r ON true""")) {
                while (rs.next()) {
                    duplicates.add(new Duplicate(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT reference_id, state FROM psp_refund_attempt")) {
                while (rs.next()) {
                    refundStateByReference.put(rs.getString(1), rs.getString(2));
                }
            }
        }

        Check current = new Check("no order points at a payment other than its newest non-abandoned attempt's");
        for (Order o : orders.values()) {
            if (o.paymentId() == null || o.status().equals("AWAITING_PAYMENT")) {
                continue; // a payable order keeps the id of the failed payment it is retrying after
            }
            JsonNode p = paymentById.get(o.paymentId());
            Attempt of = p == null ? null : attemptByReference.get(p.path("referenceId").asString());
            Attempt latest = newest.get(o.id());
            boolean live = !o.status().equals("PAYMENT_FAILED");
            boolean ok = of != null && latest != null && of.id() == latest.id() && !"abandoned".equals(of.failureReason())
                    && (!live || !of.state().equals("FAILED"));
            current.check(ok, o.ref() + " " + o.status() + " points at " + o.paymentId() + " of attempt "
                    + (of == null ? "?" : of.reference() + "=" + of.state()) + ", newest "
                    + (latest == null ? "?" : latest.reference() + "=" + latest.state()));
        }
        checks.add(current);

        // told by a webhook, or an abandoned attempt's (the abandoned-attempt watch asks the PSP for those)
        Check flagged = new Check("settled: every second charge told or of an abandoned attempt flagged exactly once");
        Map<String, Long> flags = new HashMap<>();
        duplicates.forEach(d -> flags.merge(d.paymentId(), 1L, Long::sum));
        long secondCharges = 0;
        for (JsonNode p : simPayments.path("payments")) {
            if (!p.path("paymentType").asString().equals("DEPOSIT") || !p.path("state").asString().equals("COMPLETED")) {
                continue;
            }
            Attempt a = attemptByReference.get(p.path("referenceId").asString());
            Order o = a == null ? null : orders.get(a.orderId());
            if (o == null) {
                continue;
            }
            String id = p.path("id").asString();
            boolean booked = o.status().equals("PAID") && id.equals(o.paymentId());
            if (booked) {
                flagged.check(!flags.containsKey(id), o.ref() + " booked payment " + id + " flagged as a second charge");
            } else if (toldCompleted.contains(id) || "abandoned".equals(a.failureReason())) {
                secondCharges++;
                flagged.check(flags.getOrDefault(id, 0L) == 1, o.ref() + " second charge " + id + " flagged "
                        + flags.getOrDefault(id, 0L) + " times");
            }
        }
        for (Duplicate d : duplicates) {
            JsonNode p = paymentById.get(d.paymentId());
            flagged.check(p != null && p.path("state").asString().equals("COMPLETED"),
                    "flagged " + d.paymentId() + " is " + (p == null ? "unknown to the PSP" : p.path("state").asString()));
        }
        checks.add(flagged);
        facts.put("second charges (told to the service, or of an abandoned attempt)", secondCharges);

        Check refundedOnce = new Check("settled: every second charge refunded at most once, DONE only when the PSP holds it");
        long refundedCharges = 0;
        for (Duplicate d : duplicates) {
            long live = refundPayments.stream()
                    .filter(r -> d.paymentId().equals(r.path("parentPaymentId").asString()))
                    .filter(r -> !r.path("state").asString().equals("DECLINED")
                            && !r.path("state").asString().equals("CANCELLED"))
                    .count();
            refundedOnce.check(live <= 1, d.paymentId() + " refunded " + live + " times at the PSP");
            if ("DONE".equals(d.refundState())) {
                refundedCharges++;
                refundedOnce.check(live == 1, d.paymentId() + " refund DONE but the PSP holds " + live);
            }
        }
        checks.add(refundedOnce);
        facts.put("second charges refunded", refundedCharges);

        Check declined = new Check("settled: a refund the PSP declined (even after accepting it) is FAILED");
        long lateDeclines = 0;
        for (JsonNode r : refundPayments) {
            String state = r.path("state").asString();
            String ours = refundStateByReference.get(r.path("referenceId").asString());
            if (ours == null || !(state.equals("DECLINED") || state.equals("CANCELLED"))) {
                continue;
            }
            lateDeclines += "REFUND_REVERSED".equals(r.path("errorCode").asString()) ? 1 : 0;
            declined.check(ours.equals("FAILED"), r.path("referenceId").asString() + " " + ours + " but PSP " + state);
        }
        checks.add(declined);
        facts.put("refunds declined after being accepted", lateDeclines);
    }

}
