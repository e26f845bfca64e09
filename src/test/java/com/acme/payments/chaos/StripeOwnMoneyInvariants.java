package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.acme.payments.chaos.Invariants.Check;
import com.acme.payments.chaos.Invariants.OrderRow;
import com.acme.payments.chaos.Invariants.RefundRow;

import tools.jackson.databind.JsonNode;

/**
 * The invariants of {@link StripeOwnMoney}'s scenarios, from Stripe's records (refunds, POSTs per
 * Idempotency-Key), our database and {@code GET /api/orders/{orderRef}/refunds}: a Dashboard refund booked
 * once as an external refund, an abandoned refund never sent again, a refusal on a replay a refusal.
 */
final class StripeOwnMoneyInvariants {

    private StripeOwnMoneyInvariants() {
    }

    static void check(StripeOwnMoney own, ChaosSimulator sim, ServiceClient client, Invariants.Db db,
            List<Check> checks, Map<String, Long> facts) throws SQLException {
        JsonNode stripeRefunds = sim.stripeRecords("refunds");
        JsonNode posts = sim.stripeRecords("idempotency-keys");
        Map<String, JsonNode> refundById = new HashMap<>();
        Map<String, List<JsonNode>> refundsByReference = new HashMap<>();
        for (JsonNode r : stripeRefunds) {
            refundById.put(r.path("id").asString(), r);
            refundsByReference.computeIfAbsent(r.path("metadata").path("referenceId").asString(""),
                    k -> new ArrayList<>()).add(r);
        }
        Map<String, OrderRow> orderByRef = new HashMap<>();
        db.orders().values().forEach(o -> orderByRef.put(o.ref(), o));
        Map<String, RefundRow> refundByKey = new HashMap<>();
        db.refunds().stream().filter(r -> r.key() != null).forEach(r -> refundByKey.put(r.key(), r));

        Check dashboard = new Check("settled: stripe: each Dashboard refund booked once as an external refund of its"
                + " order (FAILED when Stripe failed it), its receipts closed, refundedAmount = its non-failed refunds");
        for (StripeOwnMoney.Dashboard d : own.dashboard) {
            JsonNode listing = listing(client, d.orderRef());
            List<JsonNode> booked = new ArrayList<>();
            BigDecimal live = BigDecimal.ZERO;
            for (JsonNode r : items(listing)) {
                if (d.refundId().equals(r.path("pspPaymentId").asString(""))) {
                    booked.add(r);
                }
                if (!r.path("state").asString("").equals("FAILED")) {
                    live = live.add(new BigDecimal(r.path("amount").asString("0")));
                }
            }
            String atStripe = refundById.getOrDefault(d.refundId(), ChaosSimulator.JSON.createObjectNode())
                    .path("status").asString("none");
            String expected = atStripe.equals("failed") || atStripe.equals("canceled") ? "FAILED" : "DONE";
            JsonNode one = booked.size() == 1 ? booked.get(0) : null;
            dashboard.check(one != null && one.path("origin").asString("").equals("external")
                    && one.path("refundKey").isNull() && one.path("referenceId").asString("").equals(d.refundId())
                    && one.path("state").asString("").equals(expected),
                    d.orderRef() + ": " + d.refundId() + " (Stripe " + atStripe + ") booked as " + booked);
            int open = openReceipts(d.refundId());
            dashboard.check(open == 0, d.refundId() + " has " + open + " receipts left open");
            OrderRow order = orderByRef.get(d.orderRef());
            dashboard.check(order != null && order.refunded().compareTo(live) == 0, d.orderRef() + " refundedAmount "
                    + (order == null ? "?" : order.refunded()) + " but its non-failed refunds add up to " + live);
        }
        checks.add(dashboard);

        Check abandoned = new Check("stripe: an abandoned refund is never sent again nor made; never refunded more"
                + " than paid");
        for (StripeOwnMoney.Abandoned a : own.abandoned) {
            int now = posts.path(a.referenceId()).asInt(0);
            abandoned.check(now == a.postsAtAbandon(), a.referenceId() + " of " + a.orderRef() + " POSTed " + now
                    + " times, " + a.postsAtAbandon() + " when abandoned");
            List<JsonNode> made = refundsByReference.getOrDefault(a.referenceId(), List.of());
            abandoned.check(made.isEmpty(), a.referenceId() + " made at Stripe after all: " + made);
            OrderRow order = orderByRef.get(a.orderRef());
            abandoned.check(order != null && order.paid() != null && order.refunded().compareTo(order.paid()) <= 0,
                    a.orderRef() + " refunded " + (order == null ? "?" : order.refunded() + " of " + order.paid()));
        }
        checks.add(abandoned);

        Check refusedRefund = new Check("settled: stripe: a refund refused on its replay ends FAILED, its"
                + " reservation released (the remainder's refund taken)");
        for (StripeOwnMoney.RefusedRefund r : own.refusedRefunds) {
            RefundRow row = refundByKey.get(r.refundKey());
            int sent = row == null ? 0 : posts.path(row.reference()).asInt(0);
            refusedRefund.check(row != null && row.state().equals("FAILED") && sent >= 2, r.refundKey() + " of "
                    + r.orderRef() + " " + (row == null ? "missing" : row.state()) + ", sent " + sent + " times");
            boolean blocked = r.remainder().status() == 422 || r.remainder().problem().equals("refund-blocked-by-unknown");
            refusedRefund.check(!blocked && refundByKey.containsKey(r.remainderKey()), "remainder of " + r.orderRef()
                    + " answered " + r.remainder().status() + " " + r.remainder().problem() + ", row "
                    + refundByKey.containsKey(r.remainderKey()));
        }
        checks.add(refusedRefund);

        Check refusedCheckout = new Check("settled: stripe: a checkout refused on its replay ends FAILED, the order"
                + " payable again");
        for (StripeOwnMoney.RefusedCheckout c : own.refusedCheckouts) {
            OrderRow order = orderByRef.get(c.orderRef());
            Invariants.AttemptRow first = order == null ? null : db.attempts().stream()
                    .filter(a -> a.orderId() == order.id()).findFirst().orElse(null);
            int sent = first == null ? 0 : posts.path(first.reference()).asInt(0);
            refusedCheckout.check(first != null && first.state().equals("FAILED") && sent >= 2, c.orderRef()
                    + " first attempt " + (first == null ? "missing" : first.reference() + " " + first.state() + " ["
                            + first.detail() + "]") + ", sent " + sent + " times");
            refusedCheckout.check(c.again().status() == 200, c.orderRef() + " checked out again: "
                    + c.again().status() + " " + c.again().problem());
        }
        checks.add(refusedCheckout);

        facts.put("stripe Dashboard refunds (failed later at Stripe)", (long) own.dashboard.size());
        facts.put("  of which failed later", own.dashboard.stream().filter(StripeOwnMoney.Dashboard::failed).count());
        facts.put("stripe refunds abandoned after a lost create", (long) own.abandoned.size());
        facts.put("stripe refunds refused on replay", (long) own.refusedRefunds.size());
        facts.put("stripe checkouts refused on replay", (long) own.refusedCheckouts.size());
    }

    /** The inbox receipts of a PSP payment not yet processed (a receipt left for the replay job). */
    private static int openReceipts(String paymentId) throws SQLException {
        try (Connection c = TestDatabaseName.connect(); PreparedStatement s = c.prepareStatement(
                "SELECT count(*) FROM psp_webhook_event WHERE payment_id = ? AND processed_at IS NULL")) {
            s.setString(1, paymentId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** A listing's items: the array itself, or its {@code data}. */
    static JsonNode items(JsonNode listing) {
        return listing.isArray() ? listing : listing.path("data");
    }

    private static JsonNode listing(ServiceClient client, String orderRef) {
        for (int instance = 0; instance < client.instances(); instance++) {
            ServiceClient.Answer a = client.call(instance, "GET", "/api/orders/" + orderRef + "/refunds",
                    ServiceClient.ADMIN_KEY, null, null);
            if (a.status() == 200) {
                return a.json();
            }
        }
        return ChaosSimulator.JSON.createArrayNode();
    }
}
