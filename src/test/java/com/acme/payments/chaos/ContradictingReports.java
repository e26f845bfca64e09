package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.util.Random;
import java.util.UUID;

import com.acme.payments.chaos.ExitsWorkload.Hosted;
import com.acme.payments.chaos.ServiceClient.Answer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Final is final. A signed DECLINED report, posted by the workload, for the payment that
 * paid its order or for a refund the PSP has COMPLETED. The contract: answered {@code ignored}, no state or
 * amount changes, listed by {@code GET /api/admin/discrepancies} as {@code contradicting_report}, and a
 * {@code discrepancy} effect ({@code <pspPaymentId>:contradicting_report}) sent once.
 */
final class ContradictingReports {

    private final ExitsWorkload exits;
    /** The payment and the refund in turn. */
    private final java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();

    ContradictingReports(ExitsWorkload exits) {
        this.exits = exits;
    }

    void report(Random random) {
        int n = exits.nextNumber();
        String orderRef = exits.newOrder("900.00", n);
        if (orderRef == null) {
            return;
        }
        Hosted hosted = exits.paidHosted(random, orderRef);
        if (hosted == null) {
            exits.tally.add("exits.contradicting.not-paid");
            return;
        }
        if (turn.getAndIncrement() % 2 == 0) {
            JsonNode payment = find(hosted.referenceId(), hosted.paymentId());
            BigDecimal refunded = refundedAmount(random, orderRef);
            if (payment == null || refunded == null) {
                exits.tally.add("exits.contradicting.payment.not-read");
                return;
            }
            post(random, "payment", orderRef, null, refunded, declined(payment, "DECLINED_BY_ISSUER"));
            return;
        }
        // a full refund: its amount (900.00 + n cents) is this scenario's own, so no refund rule touches it
        String amount = new BigDecimal("900.00").add(BigDecimal.valueOf(n, 2)).toPlainString();
        String key = "rfc-" + UUID.randomUUID();
        String body = "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\",\"reason\":\"chaos\"}";
        Answer refund = null;
        for (int i = 0; i < 6 && exits.running(); i++) {
            refund = exits.call(random, "POST", "/api/orders/" + orderRef + "/refunds", key, body);
            if (refund.status() / 100 == 2) {
                break;
            }
            ExitsWorkload.pause(random, 300, 1000);
        }
        if (refund == null || refund.status() / 100 != 2
                || !"COMPLETED".equals(refund.json().path("pspState").asString(""))) {
            exits.tally.add("exits.contradicting.refund.not-completed");
            return;
        }
        String reference = refund.json().path("referenceId").asString("");
        JsonNode refundPayment = find(reference, refund.json().path("pspPaymentId").asString(""));
        BigDecimal refunded = refundedAmount(random, orderRef);
        if (refundPayment == null || refunded == null) {
            exits.tally.add("exits.contradicting.refund.not-read");
            return;
        }
        post(random, "refund", orderRef, reference, refunded, declined(refundPayment, "REFUND_REVERSED"));
    }

    private void post(Random random, String target, String orderRef, String refundReference, BigDecimal refunded,
            ObjectNode report) {
        FinalTruthsLog.Post post = SignedWebhooks.post(exits.client, random, "contradicting", orderRef, report);
        exits.log.contradictions.add(new FinalTruthsLog.Contradiction(target, orderRef, refundReference, refunded, post));
        post.answers().forEach(a -> exits.tally.add("exits.contradicting." + target + " " + SignedWebhooks.describe(a)));
    }

    private static ObjectNode declined(JsonNode payment, String errorCode) {
        ObjectNode report = SignedWebhooks.copyOf(payment);
        report.put("state", "DECLINED");
        report.put("errorCode", errorCode);
        report.put("errorMessage", "a contradicting report (chaos)");
        return report;
    }

    private JsonNode find(String referenceId, String paymentId) {
        for (JsonNode p : exits.sim.paymentsFor(referenceId)) {
            if (p.path("id").asString().equals(paymentId)) {
                return p;
            }
        }
        return null;
    }

    /** The order's {@code refundedAmount} now, or null when no instance answered. */
    private BigDecimal refundedAmount(Random random, String orderRef) {
        for (int i = 0; i < 6; i++) {
            Answer a = exits.call(random, "GET", "/api/orders/" + orderRef, null, null);
            if (a.status() == 200) {
                return Invariants.decimal(a.json().path("refundedAmount"));
            }
            ExitsWorkload.pause(random, 300, 1000);
        }
        return null;
    }
}
