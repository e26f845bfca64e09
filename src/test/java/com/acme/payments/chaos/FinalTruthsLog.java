package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.acme.payments.chaos.ServiceClient.Answer;

/**
 * What the final-truth scenarios did and were answered, for {@link FinalTruthsInvariants}: the signed
 * webhooks the workload posted itself (payload faults, contradicting reports), the return-page answers
 * under corrupted look-ups, and what was seen of second-charge refunds. Thread-safe lists.
 */
final class FinalTruthsLog {

    /**
     * One signed webhook the workload posted, with every answer (it is posted again after no answer or a
     * 503, as a PSP would redeliver).
     *
     * @param kind what is wrong with it: a payload fault ({@code currency-EURO}, …) or {@code contradicting}
     * @param paymentId the {@code id} posted (the receipt's key with {@code state})
     * @param receiptAfter whether the inbox held its receipt right after the last answer (null: not read —
     *        no answer, a 503, or the harness could not reach the database)
     */
    // lastSentAt: when the delivery that gave the last answer went out (a 503 or no answer is posted again)
    record Post(String kind, String orderRef, String paymentId, String state, Instant sentAt, Instant lastSentAt,
            List<Answer> answers,
            Boolean receiptAfter) {

        /** The last answer came from the service past its signature check and its database (not none, not 503). */
        boolean reached() {
            Answer last = answers.get(answers.size() - 1);
            return last.answered() && last.status() != 503;
        }

        /** The last 2xx answer, or null when none came. */
        Answer accepted() {
            Answer last = null;
            for (Answer a : answers) {
                if (a.status() / 100 == 2) {
                    last = a;
                }
            }
            return last;
        }
    }

    /**
     * A DECLINED report for a final truth: the payment that paid its order ({@code payment}) or a refund the
     * PSP has COMPLETED ({@code refund}, with its reference), and the order's refunded amount before it.
     */
    record Contradiction(String target, String orderRef, String refundReference, BigDecimal refundedBefore, Post post) {
    }

    /** The return page's answers while the PSP's look-ups of the order's payment were corrupted. */
    record CorruptedLookUp(String orderRef, String field, List<Answer> returns) {
    }

    /**
     * A second-charge refund seen open ({@code IN_FLIGHT}/{@code UNKNOWN}) twice in the duplicate-charges
     * listing, and whether {@code GET /api/admin/unresolved} listed it in between as {@code duplicate_refund}.
     */
    record OpenSecondChargeRefund(String chargeId, String referenceId, String state, boolean listed, String listedAs) {
    }

    /**
     * A second-charge refund the PSP accepted PENDING and then DECLINED: whether the workload saw it FAILED in
     * time, and the answer to refunding the charge again (null when not tried).
     */
    record DeclinedSecondChargeRefund(String chargeId, String referenceId, String refundPaymentId, boolean seenFailed,
            Answer again) {
    }

    /**
     * Two concurrent abandons of an UNKNOWN second-charge refund the PSP hides, and their answers (then
     * more, one at a time, while the PSP could not be asked: 409 {@code refund-outcome-unknown}).
     */
    record AbandonedSecondChargeRefund(String chargeId, String referenceId, List<Answer> answers) {
    }

    final List<Post> payloadPosts = new CopyOnWriteArrayList<>();
    final List<AbandonedSecondChargeRefund> abandonedSecondChargeRefunds = new CopyOnWriteArrayList<>();
    final List<Contradiction> contradictions = new CopyOnWriteArrayList<>();
    final List<CorruptedLookUp> corruptedLookUps = new CopyOnWriteArrayList<>();
    final List<OpenSecondChargeRefund> openSecondChargeRefunds = new CopyOnWriteArrayList<>();
    final List<DeclinedSecondChargeRefund> declinedSecondChargeRefunds = new CopyOnWriteArrayList<>();

    /** Every post, payload faults and contradicting reports alike (the "no receipt lost" check reads them). */
    List<Post> allPosts() {
        List<Post> all = new java.util.ArrayList<>(payloadPosts);
        contradictions.forEach(c -> all.add(c.post()));
        return all;
    }
}
