package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * The shop's events ({@code SHOP_EVENTS_URL} is the simulator's {@code /sink/shop-events}): each transition wrote
 * its event once, and each order's events reached the shop in the order they were written. That each reached it
 * exactly once per {@code webhook-id}, signed, is the common delivery invariants' (an event's id is its outbox key).
 */
final class ShopEventInvariants {

    static final String SINK_PATH = "/sink/shop-events";

    private ShopEventInvariants() {
    }

    record Event(long id, String key, String type, String orderRef, String referenceId) {
    }

    static List<Invariants.Check> check(JsonNode sink) throws SQLException {
        List<Event> events = new ArrayList<>();
        Map<String, String> orderStatus = new HashMap<>();
        Map<String, String> refundTruth = new HashMap<>();
        try (Connection c = TestDatabaseName.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("""
                    SELECT id, idempotency_key, kind, aggregate_id, payload ->> 'referenceId' FROM outbox
                     WHERE kind LIKE 'payment.%' OR kind LIKE 'refund.%' OR kind LIKE 'dispute.%' ORDER BY id""")) {
                while (rs.next()) {
                    events.add(new Event(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5)));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT order_ref, status FROM orders")) {
                while (rs.next()) {
                    orderStatus.put(rs.getString(1), rs.getString(2));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT reference_id, state, psp_state FROM psp_refund_attempt")) {
                while (rs.next()) {
                    refundTruth.put(rs.getString(1), rs.getString(2) + "/" + rs.getString(3));
                }
            }
        }
        List<Invariants.Check> checks = new ArrayList<>();
        checks.add(eachTransitionOnce(events, orderStatus, refundTruth));
        checks.add(inOrderPerOrder(events, sink));
        return checks;
    }

    /**
     * The transitions the final rows prove happened, each with exactly one event: a PAID order one
     * {@code payment.succeeded}, and an order's last payment event is its status's. A refund's events alternate
     * (a refund may fail and be revived when the PSP shows it made after all, or fail after it was done: one event
     * per move, never the same twice in a row) and the last is its state's: {@code refund.succeeded} for one DONE
     * at the PSP ({@code COMPLETED}), {@code refund.failed} for a FAILED one.
     */
    private static Invariants.Check eachTransitionOnce(List<Event> events, Map<String, String> orderStatus,
            Map<String, String> refundTruth) {
        Invariants.Check check = new Invariants.Check("every transition's event written exactly once (orders, refunds)");
        Map<String, List<String>> paymentEvents = new HashMap<>();
        Map<String, List<String>> refundEvents = new HashMap<>();
        for (Event e : events) {
            if (e.type().startsWith("payment.")) {
                paymentEvents.computeIfAbsent(e.orderRef(), k -> new ArrayList<>()).add(e.type());
            } else if (e.type().startsWith("refund.") && e.referenceId() != null) {
                refundEvents.computeIfAbsent(e.referenceId(), k -> new ArrayList<>()).add(e.type());
            }
        }
        orderStatus.forEach((ref, status) -> {
            List<String> mine = paymentEvents.getOrDefault(ref, List.of());
            String last = mine.isEmpty() ? null : mine.get(mine.size() - 1);
            switch (status) {
            case "PAID" -> check.check(mine.stream().filter("payment.succeeded"::equals).count() == 1
                    && "payment.succeeded".equals(last), ref + " PAID with payment events " + mine);
            case "AUTHORIZED" -> check.check("payment.authorized".equals(last), ref + " AUTHORIZED with " + mine);
            case "PAYMENT_FAILED" -> check.check("payment.failed".equals(last) || "payment.voided".equals(last),
                    ref + " PAYMENT_FAILED with " + mine);
            default -> check.check(mine.stream().noneMatch("payment.succeeded"::equals),
                    ref + " " + status + " with " + mine);
            }
        });
        refundTruth.forEach((reference, truth) -> {
            List<String> mine = refundEvents.getOrDefault(reference, List.of());
            String expectedLast = truth.equals("DONE/COMPLETED") ? "refund.succeeded"
                    : truth.startsWith("FAILED/") ? "refund.failed" : null;
            if (expectedLast == null) {
                return; // under way at the PSP: no final event owed yet
            }
            boolean alternating = true;
            for (int i = 1; i < mine.size(); i++) {
                alternating &= !mine.get(i).equals(mine.get(i - 1));
            }
            check.check(alternating && !mine.isEmpty() && mine.get(mine.size() - 1).equals(expectedLast),
                    reference + " " + truth + " with " + mine);
        });
        return check;
    }

    /** Settled: an order's events, in the order their first delivery reached the shop, are the order written. */
    private static Invariants.Check inOrderPerOrder(List<Event> events, JsonNode sink) {
        Invariants.Check check = new Invariants.Check("settled: each order's events reached the shop in order");
        Map<String, Long> firstSeq = new HashMap<>();
        for (JsonNode r : sink) {
            if (r.path("path").asString("").startsWith(SINK_PATH)) {
                firstSeq.merge(r.path("idempotencyKey").asString(""), r.path("seq").asLong(), Math::min);
            }
        }
        Map<String, List<Event>> byOrder = new LinkedHashMap<>();
        events.forEach(e -> byOrder.computeIfAbsent(e.orderRef(), k -> new ArrayList<>()).add(e));
        byOrder.forEach((ref, written) -> {
            List<String> arrived = written.stream().filter(e -> firstSeq.containsKey(e.key()))
                    .sorted(java.util.Comparator.comparingLong(e -> firstSeq.get(e.key()))).map(Event::key).toList();
            List<String> expected = written.stream().map(Event::key).toList();
            check.check(arrived.equals(expected), ref + " written " + types(written) + " arrived " + arrived.size()
                    + " of them, in " + (arrived.equals(expected) ? "order" : "another order"));
        });
        return check;
    }

    private static List<String> types(List<Event> events) {
        return events.stream().map(Event::type).toList();
    }
}
