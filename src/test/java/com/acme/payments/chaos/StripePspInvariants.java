package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.acme.payments.chaos.Invariants.AttemptRow;
import com.acme.payments.chaos.Invariants.Check;
import com.acme.payments.chaos.Invariants.OrderRow;
import com.acme.payments.chaos.Invariants.RefundRow;

import tools.jackson.databind.JsonNode;

/**
 * The money invariants of the Stripe-PSP run, read from the simulator's Stripe objects (what Stripe really
 * holds) and from our database and API after settling, never from the answers the shoppers got: one
 * Checkout Session per attempt, every paid PaymentIntent booked once, refunds never above what was received
 * and equal to the order's refunded amount, nothing left open; then {@link Invariants#common}.
 * Amounts at Stripe are EUR cents.
 */
final class StripePspInvariants {

    private static final Set<String> HOLDS_MONEY = Set.of("succeeded", "requires_capture", "processing");
    private static final Set<String> REFUND_LIVE = Set.of("succeeded", "pending", "requires_action");

    private StripePspInvariants() {
    }

    static Invariants.Result check(ChaosSimulator sim, List<String> downgrades, List<Instant> kills,
            ServiceClient client) throws SQLException {
        // Stripe first: whatever the database shows afterwards was caused by what Stripe held by then
        JsonNode sessions = sim.stripeRecords("sessions");
        JsonNode intents = sim.stripeRecords("payment_intents");
        JsonNode stripeRefunds = sim.stripeRecords("refunds");
        JsonNode deliveries = sim.stripeRecords("webhooks");
        JsonNode sink = sim.sink();
        Invariants.Db db = Invariants.Db.read();
        Set<String> secondCharges = ExitsInvariants.duplicatePaymentIds();
        ServiceClient.Answer unresolved = client.call(0, "GET", "/api/admin/unresolved", ServiceClient.ADMIN_KEY,
                null, null);

        Map<String, AttemptRow> attemptByReference = new HashMap<>();
        db.attempts().forEach(a -> attemptByReference.put(a.reference(), a));
        Map<String, List<JsonNode>> sessionsByAttempt = new HashMap<>();
        Map<String, JsonNode> sessionByIntent = new HashMap<>();
        for (JsonNode s : sessions) {
            sessionsByAttempt.computeIfAbsent(s.path("client_reference_id").asString(""), k -> new ArrayList<>())
                    .add(s);
            if (s.hasNonNull("payment_intent")) {
                sessionByIntent.put(s.path("payment_intent").asString(), s);
            }
        }
        Map<String, JsonNode> intentById = new HashMap<>();
        intents.forEach(pi -> intentById.put(pi.path("id").asString(), pi));
        Map<String, List<JsonNode>> refundsByIntent = new HashMap<>();
        Map<String, List<JsonNode>> refundsByReference = new HashMap<>();
        for (JsonNode r : stripeRefunds) {
            refundsByIntent.computeIfAbsent(r.path("payment_intent").asString(), k -> new ArrayList<>()).add(r);
            // one made elsewhere (the Dashboard) has no referenceId of ours: its booking is referenced by its id
            String reference = r.path("metadata").path("referenceId").asString("");
            refundsByReference.computeIfAbsent(reference.isEmpty() ? r.path("id").asString() : reference,
                    k -> new ArrayList<>()).add(r);
        }

        List<Check> checks = new ArrayList<>();
        Map<String, Long> facts = new TreeMap<>();

        Check oneSession = new Check("one Checkout Session per attempt (client_reference_id): never two paid for one");
        for (AttemptRow a : db.attempts()) {
            int created = sessionsByAttempt.getOrDefault(a.reference(), List.of()).size();
            oneSession.check(created <= 1, a.reference() + " has " + created + " sessions");
        }
        sessionsByAttempt.keySet().forEach(ref -> oneSession.check(attemptByReference.containsKey(ref),
                "session for " + ref + ", which is no attempt of ours"));
        checks.add(oneSession);

        Check oneLive = new Check("per order at most one PaymentIntent holding money (second charges flagged apart)");
        Map<Long, List<String>> live = new HashMap<>();
        for (JsonNode pi : intents) {
            AttemptRow a = attemptOf(pi, sessionByIntent, attemptByReference);
            String id = pi.path("id").asString();
            if (a != null && HOLDS_MONEY.contains(pi.path("status").asString())
                    && !secondCharge(id, sessionByIntent, secondCharges)) {
                live.computeIfAbsent(a.orderId(), k -> new ArrayList<>()).add(id + ":" + pi.path("status").asString());
            }
        }
        db.orders().values().forEach(o -> oneLive.check(live.getOrDefault(o.id(), List.of()).size() <= 1,
                o.ref() + " holds " + live.get(o.id())));
        checks.add(oneLive);

        Check booked = new Check("settled: every succeeded PaymentIntent booked once: the order PAID with it, or a second charge");
        for (JsonNode pi : intents) {
            if (!pi.path("status").asString().equals("succeeded")) {
                continue;
            }
            String id = pi.path("id").asString();
            AttemptRow a = attemptOf(pi, sessionByIntent, attemptByReference);
            OrderRow o = a == null ? null : db.orders().get(a.orderId());
            boolean paidWithIt = o != null && o.status().equals("PAID") && id.equals(o.paymentId())
                    && o.paid() != null && o.paid().compareTo(cents(pi.path("amount_received"))) == 0;
            boolean second = secondCharge(id, sessionByIntent, secondCharges);
            booked.check(paidWithIt != second, id + " of " + (o == null ? "no order" : o.ref() + " " + o.status()
                    + " [" + o.detail() + "] paid " + o.paid()) + ": booked " + paidWithIt + ", second charge " + second);
        }
        checks.add(booked);

        Check paidHasIntent = new Check("no order PAID without a succeeded PaymentIntent of that amount");
        for (OrderRow o : db.orders().values()) {
            if (o.status().equals("PAID")) {
                JsonNode pi = o.paymentId() == null ? null : intentById.get(o.paymentId());
                paidHasIntent.check(pi != null && pi.path("status").asString().equals("succeeded")
                        && cents(pi.path("amount_received")).compareTo(o.paid()) == 0,
                        o.ref() + " PAID " + o.paid() + " with " + o.paymentId() + " "
                                + (pi == null ? "unknown to Stripe" : pi.path("status").asString() + " received "
                                        + pi.path("amount_received")));
            }
        }
        checks.add(paidHasIntent);

        Check notAbove = new Check("per PaymentIntent, Stripe refunds not failed/canceled <= amount received");
        Check equal = new Check("settled: per order, Stripe refunds of its PaymentIntent = refunded_amount");
        for (JsonNode pi : intents) {
            BigDecimal refunded = liveRefunds(refundsByIntent.get(pi.path("id").asString()));
            notAbove.check(refunded.compareTo(cents(pi.path("amount_received"))) <= 0,
                    pi.path("id").asString() + " refunded " + refunded + " of " + cents(pi.path("amount_received")));
        }
        for (OrderRow o : db.orders().values()) {
            BigDecimal atStripe = o.paymentId() == null ? BigDecimal.ZERO : liveRefunds(refundsByIntent.get(o.paymentId()));
            equal.check(atStripe.compareTo(o.refunded()) == 0,
                    o.ref() + " refunded " + o.refunded() + " but Stripe " + atStripe + " of " + o.paymentId());
        }
        checks.add(notAbove);
        checks.add(equal);

        Check oneRefund = new Check("one Stripe refund per refund reference (metadata[referenceId])");
        Check refundAgrees = new Check("settled: each refund attempt agrees with its Stripe refund");
        for (RefundRow r : db.refunds()) {
            List<JsonNode> atStripe = refundsByReference.getOrDefault(r.reference(), List.of());
            oneRefund.check(atStripe.size() <= 1, r.reference() + " has " + atStripe.size() + " Stripe refunds");
            String status = atStripe.isEmpty() ? "none" : atStripe.get(0).path("status").asString();
            boolean ok = switch (status) {
                case "succeeded" -> r.state().equals("DONE")
                        && cents(atStripe.get(0).path("amount")).compareTo(r.amount()) == 0;
                case "failed", "canceled", "none" -> r.state().equals("FAILED");
                default -> r.state().equals("DONE");
            };
            refundAgrees.check(ok, (r.secondCharge() ? "second-charge refund " : r.key() == null ? "external refund "
                    : "refund " + r.key() + " ")
                    + r.reference() + " " + r.state() + " but Stripe " + status);
        }
        refundsByReference.keySet().forEach(ref -> oneRefund.check(
                db.refunds().stream().anyMatch(r -> r.reference().equals(ref)), "Stripe refund for " + ref
                        + ", which is no refund attempt of ours"));
        checks.add(oneRefund);
        checks.add(refundAgrees);

        Check open = new Check("settled: nothing IN_FLIGHT/UNKNOWN (attempts, refunds, operations; GET /api/admin/unresolved)");
        db.attempts().forEach(a -> open.check(!isOpen(a.state()), "attempt " + a.reference() + " " + a.state()
                + " [" + a.detail() + "]"));
        db.refunds().forEach(r -> open.check(!isOpen(r.state()), "refund " + r.reference() + " " + r.state()));
        db.openOperations().forEach(op -> open.check(false, "operation " + op));
        open.check(unresolved.status() == 200 && unresolved.json().isArray() && unresolved.json().isEmpty(),
                "GET /api/admin/unresolved answered " + unresolved.status() + " " + abbreviate(unresolved.body()));
        checks.add(open);

        Check agrees = new Check("settled: order status agrees with Stripe's objects of its latest attempt");
        Map<Long, AttemptRow> latest = new HashMap<>();
        db.attempts().forEach(a -> latest.put(a.orderId(), a));
        for (OrderRow o : db.orders().values()) {
            AttemptRow a = latest.get(o.id());
            List<JsonNode> found = a == null ? List.of() : sessionsByAttempt.getOrDefault(a.reference(), List.of());
            if (found.isEmpty() || a.state().equals("FAILED") && a.detail().contains("abandoned")) {
                continue; // never reached Stripe, or abandoned: its session never moves the order
            }
            JsonNode session = found.get(0);
            JsonNode pi = intentById.get(session.path("payment_intent").asString(""));
            String piStatus = pi == null ? "none" : pi.path("status").asString();
            String expected = switch (piStatus) {
                case "succeeded" -> "PAID";
                case "requires_capture" -> "AUTHORIZED";
                case "canceled" -> "PAYMENT_FAILED";
                default -> session.path("status").asString().equals("expired")
                        || session.path("status").asString().equals("complete") && piStatus.equals("requires_payment_method")
                        ? "PAYMENT_FAILED" : "AWAITING_PAYMENT|PROCESSING";
            };
            agrees.check(List.of(expected.split("\\|")).contains(o.status()), o.ref() + " " + o.status() + " ["
                    + o.detail() + "] but session " + session.path("id").asString() + " "
                    + session.path("status").asString() + "/" + session.path("payment_status").asString()
                    + ", PaymentIntent " + piStatus + " (attempt " + a.reference() + " " + a.state() + ")");
        }
        checks.add(agrees);

        Invariants.common(db, sink, downgrades, kills, checks, facts);

        sessions.forEach(s -> facts.merge("Stripe sessions " + s.path("status").asString() + "/"
                + s.path("payment_status").asString(), 1L, Long::sum));
        intents.forEach(pi -> facts.merge("Stripe PaymentIntents " + pi.path("status").asString() + " ("
                + pi.path("capture_method").asString() + ")", 1L, Long::sum));
        stripeRefunds.forEach(r -> facts.merge("Stripe refunds " + r.path("status").asString(), 1L, Long::sum));
        long answered = 0;
        for (JsonNode d : deliveries) {
            int status = d.path("status").asInt(0);
            answered += status >= 200 && status < 300 ? 1 : 0;
        }
        facts.put("Stripe event deliveries attempted", (long) deliveries.size());
        facts.put("  of which answered 2xx", answered);
        facts.put("second charges recorded", (long) secondCharges.size());
        return new Invariants.Result(checks, facts);
    }

    /** The attempt of a PaymentIntent: its session's client_reference_id, else its metadata[attempt]. */
    private static AttemptRow attemptOf(JsonNode pi, Map<String, JsonNode> sessionByIntent,
            Map<String, AttemptRow> attemptByReference) {
        JsonNode session = sessionByIntent.get(pi.path("id").asString());
        String reference = session != null ? session.path("client_reference_id").asString("")
                : pi.path("metadata").path("attempt").asString("");
        return attemptByReference.get(reference);
    }

    /** A second charge is recorded by its PaymentIntent, or by its session while that was all we knew. */
    private static boolean secondCharge(String intentId, Map<String, JsonNode> sessionByIntent, Set<String> ids) {
        JsonNode session = sessionByIntent.get(intentId);
        return ids.contains(intentId) || session != null && ids.contains(session.path("id").asString());
    }

    private static BigDecimal liveRefunds(List<JsonNode> refunds) {
        BigDecimal sum = BigDecimal.ZERO;
        for (JsonNode r : refunds == null ? List.<JsonNode>of() : refunds) {
            if (REFUND_LIVE.contains(r.path("status").asString())) {
                sum = sum.add(cents(r.path("amount")));
            }
        }
        return sum;
    }

    private static BigDecimal cents(JsonNode minor) {
        return BigDecimal.valueOf(minor.asLong(0), 2);
    }

    private static boolean isOpen(String state) {
        return state.equals("IN_FLIGHT") || state.equals("UNKNOWN");
    }

    private static String abbreviate(String body) {
        return body == null || body.length() <= 300 ? String.valueOf(body) : body.substring(0, 300) + "…";
    }
}
