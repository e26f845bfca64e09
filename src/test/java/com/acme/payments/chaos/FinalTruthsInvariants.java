package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.acme.payments.chaos.FinalTruthsLog.Contradiction;
import com.acme.payments.chaos.FinalTruthsLog.Post;
import com.acme.payments.chaos.Invariants.Check;
import com.acme.payments.chaos.ServiceClient.Answer;

import tools.jackson.databind.JsonNode;

/**
 * The final-truth invariants, from the simulator's records, the workload's own posts, the inbox table and
 * the operator's listings (read over HTTP, as an operator would): no receipt lost and no 5xx for a payload
 * fault; a contradicting report changes nothing; no discrepancy goes unlisted; every second-charge refund
 * has the order refund's exits and late truths.
 */
final class FinalTruthsInvariants {

    private record Receipt(Timestamp processedAt, String reason) {
    }

    private FinalTruthsInvariants() {
    }

    static void check(FinalTruthsLog log, ServiceClient client, JsonNode simPayments, JsonNode webhooks, JsonNode sink,
            Instant seen, List<Check> checks, Map<String, Long> facts) throws SQLException {
        Map<String, Receipt> receipts = receipts();
        Map<String, Integer> effects = new HashMap<>();
        for (JsonNode r : sink) {
            if ("POST".equals(r.path("method").asString()) && r.path("path").asString().endsWith("/notify")) {
                effects.merge(r.path("idempotencyKey").asString(), 1, Integer::sum);
            }
        }
        Reads reads = new Reads(client);
        payloadFaults(log, receipts, checks, facts);
        receiptsKept(log, webhooks, receipts, checks, facts);
        contradictions(log, reads, checks);
        JsonNode charges = reads.get("/api/admin/duplicate-charges");
        unlisted(log, reads, charges, simPayments, effects, checks, facts);
        secondChargeRefunds(log, reads, charges, simPayments, effects, seen, checks, facts);
    }

    private static void payloadFaults(FinalTruthsLog log, Map<String, Receipt> receipts, List<Check> checks,
            Map<String, Long> facts) {
        Check no5xx = new Check("no 5xx answered to a payload fault (signed webhook, or a look-up on the return page)");
        long outage = 0;
        for (Post post : log.payloadPosts) {
            for (Answer a : post.answers()) {
                no5xx.check(!serverFault(a), "webhook " + post.kind() + " of " + post.orderRef() + " answered "
                        + SignedWebhooks.describe(a));
                outage += InjectedOutages.excused(a) ? 1 : 0;
            }
        }
        for (FinalTruthsLog.CorruptedLookUp lookUp : log.corruptedLookUps) {
            for (Answer a : lookUp.returns()) {
                no5xx.check(!serverFault(a), "return of " + lookUp.orderRef() + " under a corrupted look-up ("
                        + lookUp.field() + ") answered " + SignedWebhooks.describe(a));
                outage += InjectedOutages.excused(a) ? 1 : 0;
            }
        }
        checks.add(no5xx);
        facts.put("payload faults answered 503 database-unavailable during an injected outage (posted again)", outage);

        Check unknown = new Check("a payload-fault webhook is answered 200 unknown_payment");
        long unanswered = 0;
        for (Post post : log.payloadPosts) {
            Answer accepted = post.accepted();
            if (accepted == null) {
                unanswered++;
                continue;
            }
            String status = accepted.json().path("status").asString("");
            Receipt receipt = receipts.get(key(post.paymentId(), post.state()));
            // the real webhook got through first (a fault rule ahead of ours took it) and closed the receipt,
            // before the delivery that was answered (after a 503 the post is sent again, later)
            boolean closedBefore = receipt != null && receipt.processedAt() != null
                    && receipt.processedAt().toInstant().isBefore(post.lastSentAt());
            unknown.check(status.equals("unknown_payment") || closedBefore && status.equals("duplicate"),
                    post.kind() + " of " + post.orderRef() + " answered " + accepted.status() + " " + status);
        }
        checks.add(unknown);
        facts.put("payload-fault webhooks posted", (long) log.payloadPosts.size());
        facts.put("  of which never answered (instances down or the database out)", unanswered);
        facts.put("return pages under corrupted look-ups", (long) log.corruptedLookUps.size());
    }

    private static void receiptsKept(FinalTruthsLog log, JsonNode webhooks, Map<String, Receipt> receipts,
            List<Check> checks, Map<String, Long> facts) {
        Check kept = new Check("no receipt lost: every signed webhook answered has its inbox receipt (workload posts read at once)");
        for (JsonNode w : webhooks) {
            int status = w.path("status").asInt(0);
            if (status >= 200 && status < 300) {
                String id = w.path("paymentId").asString();
                String state = w.path("state").asString();
                kept.check(receipts.containsKey(key(id, state)), "simulator's " + w.path("note").asString() + " of "
                        + id + " " + state + " answered " + status + ", no receipt");
            }
        }
        long unread = 0;
        for (Post post : log.allPosts()) {
            if (post.reached()) {
                // read right after the answer: a receipt rolled back with a failed apply (a 500) is missing then
                unread += post.receiptAfter() == null ? 1 : 0;
                kept.check(!Boolean.FALSE.equals(post.receiptAfter()), post.kind() + " of " + post.orderRef() + " ("
                        + abbreviated(post.paymentId()) + " " + post.state() + ") answered "
                        + SignedWebhooks.describe(post.answers().get(post.answers().size() - 1))
                        + ", no receipt right after");
            }
            Answer accepted = post.accepted();
            if (accepted == null) {
                continue;
            }
            Receipt receipt = receipts.get(key(post.paymentId(), post.state()));
            String what = post.kind() + " of " + post.orderRef() + " (" + abbreviated(post.paymentId()) + " "
                    + post.state() + ") answered " + SignedWebhooks.describe(accepted);
            if (receipt == null) {
                kept.check(false, what + ", no receipt");
                continue;
            }
            // a payload fault's receipt stays open, or a later apply (replay, the real webhook) closed it
            boolean keptOpen = !accepted.json().path("status").asString("").equals("unknown_payment")
                    || receipt.processedAt() == null || receipt.processedAt().toInstant().isAfter(post.sentAt());
            kept.check(keptOpen, what + ", receipt closed " + receipt.reason() + " before it was posted");
        }
        checks.add(kept);
        facts.put("workload webhooks whose receipt could not be read right after the answer (database out)", unread);
    }

    private static void contradictions(FinalTruthsLog log, Reads reads, List<Check> checks) {
        Check ignored = new Check("a contradicting report on a final payment or refund is answered ignored");
        Check unchanged = new Check("settled: a contradicting report changes no state and no amount");
        for (Contradiction c : log.contradictions) {
            Answer accepted = c.post().accepted();
            if (accepted == null) {
                continue;
            }
            String what = "DECLINED for the " + c.target() + " " + c.post().paymentId() + " of " + c.orderRef();
            String status = accepted.json().path("status").asString("");
            ignored.check(status.equals("ignored"), what + " answered " + accepted.status() + " " + status);
            JsonNode order = reads.get("/api/orders/" + c.orderRef());
            if (order == null) {
                unchanged.check(false, what + ": the order could not be read (" + reads.last + ")");
                continue;
            }
            BigDecimal refunded = Invariants.decimal(order.path("refundedAmount"));
            String refundState = c.refundReference() == null ? "DONE" : refundState(reads, c);
            unchanged.check(order.path("status").asString().equals("PAID") && refunded.compareTo(c.refundedBefore()) == 0
                    && refundState.equals("DONE"), what + ": order " + order.path("status").asString() + " refunded "
                    + refunded + " (before " + c.refundedBefore() + "), refund " + refundState);
        }
        checks.add(ignored);
        checks.add(unchanged);
    }

    private static String refundState(Reads reads, Contradiction c) {
        JsonNode refunds = reads.get("/api/orders/" + c.orderRef() + "/refunds");
        if (refunds != null) {
            for (JsonNode r : refunds) {
                if (c.refundReference().equals(r.path("referenceId").asString())) {
                    return r.path("state").asString();
                }
            }
        }
        return "unreadable";
    }

    private static void unlisted(FinalTruthsLog log, Reads reads, JsonNode charges, JsonNode simPayments,
            Map<String, Integer> effects, List<Check> checks, Map<String, Long> facts) {
        Check listed = new Check("settled: no discrepancy goes unlisted (contradicting reports, unrefunded second "
                + "charges, over-refunds), its effect sent");
        JsonNode discrepancies = reads.get("/api/admin/discrepancies");
        String answered = reads.last;
        Set<String> onTheList = new HashSet<>();
        if (discrepancies != null) {
            discrepancies.forEach(d -> onTheList.add(d.path("kind").asString() + ":" + d.path("pspPaymentId").asString()));
        }
        long reports = 0;
        for (Contradiction c : log.contradictions) {
            if (c.post().accepted() == null) {
                continue;
            }
            reports++;
            String id = c.post().paymentId();
            listed.check(onTheList.contains("contradicting_report:" + id), "contradicting report on " + c.target() + " "
                    + id + " of " + c.orderRef() + " not listed (discrepancies answered " + answered + ")");
            int sent = effects.getOrDefault(id + ":contradicting_report", 0);
            listed.check(sent >= 1, id + ":contradicting_report reached the notify sink " + sent + " times");
        }
        long unrefunded = 0;
        if (charges != null) {
            for (JsonNode charge : charges) {
                String state = charge.path("refund").path("state").asString("");
                if (state.isEmpty() || state.equals("FAILED")) {
                    unrefunded++;
                    String id = charge.path("pspPaymentId").asString();
                    listed.check(onTheList.contains("duplicate_charge:" + id), "unrefunded second charge " + id + " of "
                            + charge.path("orderRef").asString() + " not listed (discrepancies answered " + answered + ")");
                }
            }
        } else {
            listed.check(false, "duplicate charges could not be read (" + answered + ")");
        }
        long overRefunds = 0;
        for (Map.Entry<String, BigDecimal> excess : overRefunded(simPayments).entrySet()) {
            overRefunds++;
            String id = excess.getKey();
            listed.check(onTheList.contains("over_refund:" + id), "payment " + id + " over-refunded by "
                    + excess.getValue() + " at the PSP, not listed");
            listed.check(effects.getOrDefault(id + ":over_refund", 0) >= 1, id + ":over_refund not at the notify sink");
        }
        checks.add(listed);
        facts.put("contradicting reports accepted", reports);
        facts.put("second charges not refunded (listed as discrepancies)", unrefunded);
        facts.put("payments the PSP refunded beyond their amount", overRefunds);
    }

    /** Deposits whose live refunds at the PSP add up to more than they paid (the simulator refuses those). */
    private static Map<String, BigDecimal> overRefunded(JsonNode simPayments) {
        Map<String, BigDecimal> paid = new HashMap<>();
        Map<String, BigDecimal> refunded = new HashMap<>();
        for (JsonNode p : simPayments.path("payments")) {
            String state = p.path("state").asString();
            if (p.path("paymentType").asString().equals("DEPOSIT") && state.equals("COMPLETED")) {
                paid.put(p.path("id").asString(), Invariants.decimal(p.path("amount")));
            } else if (p.path("paymentType").asString().equals("REFUND") && !state.equals("DECLINED")
                    && !state.equals("CANCELLED")) {
                refunded.merge(p.path("parentPaymentId").asString(), Invariants.decimal(p.path("amount")), BigDecimal::add);
            }
        }
        Map<String, BigDecimal> excess = new HashMap<>();
        refunded.forEach((id, sum) -> {
            BigDecimal over = sum.subtract(paid.getOrDefault(id, sum));
            if (over.signum() > 0) {
                excess.put(id, over);
            }
        });
        return excess;
    }

    private static void secondChargeRefunds(FinalTruthsLog log, Reads reads, JsonNode charges, JsonNode simPayments,
            Map<String, Integer> effects, Instant seen, List<Check> checks, Map<String, Long> facts) {
        Check listed = new Check("an open second-charge refund is listed by /unresolved as duplicate_refund");
        for (FinalTruthsLog.OpenSecondChargeRefund open : log.openSecondChargeRefunds) {
            listed.check(open.listed(), open.referenceId() + " of " + open.chargeId() + " " + open.state()
                    + " listed as " + open.listedAs());
        }
        checks.add(listed);
        facts.put("second-charge refunds seen open (UNKNOWN or IN_FLIGHT)", (long) log.openSecondChargeRefunds.size());

        Check abandoned = new Check("an UNKNOWN second-charge refund is abandoned (one 200 FAILED abandoned, "
                + "the others 409)");
        long abandonsInOutage = 0;
        long abandonsAfterSettling = 0;
        for (FinalTruthsLog.AbandonedSecondChargeRefund a : log.abandonedSecondChargeRefunds) {
            if (a.answers().stream().anyMatch(x -> !x.answered() || InjectedOutages.excused(x))) {
                abandonsInOutage++; // an instance down or the database out: the operator would try again
                continue;
            }
            if (a.answers().stream().allMatch(x -> x.status() == 409 && x.problem().equals("refund-not-open"))) {
                // the sweep settled it between being seen open and the abandons: nothing left to abandon, and
                // the settled checks below hold it to the PSP's truth
                abandonsAfterSettling++;
                continue;
            }
            abandoned.check(abandonTook(a.answers()), a.referenceId() + " of " + a.chargeId() + " abandon answered "
                    + a.answers().stream().map(SignedWebhooks::describe).toList());
        }
        checks.add(abandoned);
        facts.put("second-charge refund abandons met by an outage or a killed instance", abandonsInOutage);
        facts.put("second-charge refund abandons that found it settled already (both 409 refund-not-open)",
                abandonsAfterSettling);

        Map<String, JsonNode> refundAtPsp = new HashMap<>();
        for (JsonNode p : simPayments.path("payments")) {
            if (p.path("paymentType").asString().equals("REFUND")) {
                refundAtPsp.put(p.path("referenceId").asString(), p);
            }
        }
        Check open = new Check("settled: no second-charge refund IN_FLIGHT/UNKNOWN whose refund the PSP shows");
        Check agrees = new Check("settled: a second-charge refund agrees with the PSP (DONE: held there; FAILED: not)");
        long hidden = 0;
        for (JsonNode charge : charges == null ? List.<JsonNode>of() : charges) {
            JsonNode refund = charge.path("refund");
            if (!refund.isObject()) {
                continue;
            }
            String reference = refund.path("referenceId").asString();
            String state = refund.path("state").asString();
            JsonNode p = refundAtPsp.get(reference);
            boolean shown = p != null && Invariants.shownToLookups(p, seen);
            hidden += p != null && !shown ? 1 : 0;
            String psp = p == null ? "none" : p.path("state").asString();
            boolean live = p != null && !psp.equals("DECLINED") && !psp.equals("CANCELLED");
            boolean isOpen = state.equals("IN_FLIGHT") || state.equals("UNKNOWN");
            // every refund is a case: settled, none may be open while the PSP shows it
            open.check(!(isOpen && shown), reference + " of " + charge.path("pspPaymentId").asString() + " " + state
                    + " but the PSP shows " + psp);
            if (!isOpen && (shown || p == null)) {
                agrees.check(state.equals("DONE") == live, reference + " of " + charge.path("pspPaymentId").asString()
                        + " " + state + " but the PSP holds " + psp);
            }
        }
        checks.add(open);
        checks.add(agrees);
        facts.put("second-charge refunds the PSP still hides from look-ups", hidden);

        Check declined = new Check("settled: a second-charge refund declined after PENDING is FAILED, sent "
                + "refund_failed, and the charge refunded again");
        for (FinalTruthsLog.DeclinedSecondChargeRefund d : log.declinedSecondChargeRefunds) {
            String state = secondChargeRefundState(reads, charges, d);
            // a state read from the listing carries where it was read ("FAILED (listing; …)")
            declined.check(state.equals("FAILED") || state.startsWith("FAILED ("), d.referenceId() + " of " + d.chargeId() + " is " + state
                    + " but the PSP declined it");
            int sent = effects.getOrDefault(d.refundPaymentId() + ":refund_failed", 0);
            declined.check(sent >= 1, d.refundPaymentId() + ":refund_failed reached the notify sink " + sent + " times");
            if (d.seenFailed()) {
                Answer again = d.again();
                String next = again == null ? "" : again.json().path("referenceId").asString("");
                declined.check(again != null && again.status() / 100 == 2 && !next.isEmpty()
                        && !next.equals(d.referenceId()), d.chargeId() + " refunded again after FAILED: "
                        + (again == null ? "no answer" : SignedWebhooks.describe(again) + " reference " + next));
            }
        }
        checks.add(declined);
        facts.put("second-charge refunds declined after PENDING", (long) log.declinedSecondChargeRefunds.size());
    }

    /**
     * Abandons of one UNKNOWN refund the PSP does not show: exactly one closes it (200, FAILED,
     * {@code errorCode: abandoned}); any other finds it no longer open (409 {@code refund-not-open}) or could
     * not ask the PSP (409 {@code refund-outcome-unknown}, a look-up fault).
     */
    static boolean abandonTook(List<Answer> answers) {
        long took = answers.stream().filter(a -> a.status() == 200 && a.json().path("state").asString().equals("FAILED")
                && a.json().path("errorCode").asString().equals("abandoned")).count();
        long refused = answers.stream().filter(a -> a.status() == 409 && (a.problem().equals("refund-not-open")
                || a.problem().equals("refund-outcome-unknown"))).count();
        return took == 1 && took + refused == answers.size();
    }

    /** The refund's state by its reference ({@code GET /api/admin/refunds/{ref}}), else from the charge listing. */
    private static String secondChargeRefundState(Reads reads, JsonNode charges,
            FinalTruthsLog.DeclinedSecondChargeRefund d) {
        JsonNode refund = reads.get("/api/admin/refunds/" + d.referenceId());
        if (refund != null) {
            return refund.path("state").asString();
        }
        String byId = "unreadable (" + reads.last + ")";
        for (JsonNode charge : charges == null ? List.<JsonNode>of() : charges) {
            if (d.referenceId().equals(charge.path("refund").path("referenceId").asString())) {
                byId = charge.path("refund").path("state").asString() + " (listing; by reference " + reads.last + ")";
            }
        }
        return byId;
    }

    /** A 5xx that is not the documented "database unavailable" of an outage the run injected. */
    private static boolean serverFault(Answer a) {
        return a.status() >= 500 && !InjectedOutages.excused(a);
    }

    private static Map<String, Receipt> receipts() throws SQLException {
        Map<String, Receipt> receipts = new HashMap<>();
        try (Connection c = TestDatabaseName.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT payment_id, state, processed_at, processed_reason FROM psp_webhook_event")) {
            while (rs.next()) {
                receipts.put(key(rs.getString(1), rs.getString(2)), new Receipt(rs.getTimestamp(3), rs.getString(4)));
            }
        }
        return receipts;
    }

    /** Receipts are keyed as the inbox stores them (an overlong id by its digest, ReceiptKey). */
    private static String key(String paymentId, String state) {
        return com.acme.payments.psp.ReceiptKey.of(paymentId) + " " + com.acme.payments.psp.ReceiptKey.of(state);
    }

    private static String abbreviated(String id) {
        return id.length() <= 40 ? id : id.substring(0, 30) + "…(" + id.length() + " chars)";
    }

    /** Reads with the admin key (the shop key for an order), from the first instance that answers 200. */
    private static final class Reads {
        private final ServiceClient client;
        String last = "";

        Reads(ServiceClient client) {
            this.client = client;
        }

        JsonNode get(String path) {
            String bearer = path.startsWith("/api/admin/") || path.endsWith("/refunds") ? ServiceClient.ADMIN_KEY
                    : ServiceClient.SHOP_KEY;
            for (int i = 0; i < client.instances(); i++) {
                Answer a = client.call(i, "GET", path, bearer, null, null);
                last = a.answered() ? a.status() + (a.status() == 200 ? "" : " " + a.problem()) : "none";
                if (a.status() == 200) {
                    return a.json();
                }
                if (a.answered()) {
                    return null;
                }
            }
            return null;
        }
    }
}
