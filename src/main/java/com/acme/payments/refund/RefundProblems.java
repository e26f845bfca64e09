package com.acme.payments.refund;

import java.time.Duration;


import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;

/** The refund answers that are not a settled refund. */
final class RefundProblems {

    private RefundProblems() {
    }

    static final class RefundExceedsRemainder extends ApiProblem {
        RefundExceedsRemainder() {
            super(ProblemType.REFUND_EXCEEDS_REMAINDER, "The amount is more than what is left to refund on this order (open refunds included).");
        }
    }

    static final class OrderNotRefundable extends ApiProblem {
        OrderNotRefundable(String status) {
            super(ProblemType.ORDER_NOT_REFUNDABLE, "Only PAID orders can be refunded; this one is " + status + ".");
        }
    }

    static final class RefundBlockedByUnknown extends ApiProblem {
        RefundBlockedByUnknown(Duration retryAfter) {
            super(ProblemType.REFUND_BLOCKED_BY_UNKNOWN, "Another refund on this order has an unknown outcome; it must be resolved first.");
            retryAfter(retryAfter);
        }
    }

    static final class RefundKeyReused extends ApiProblem {
        RefundKeyReused() {
            super(ProblemType.REFUND_KEY_REUSED, "This Idempotency-Key was used for a refund with a different amount or currency; use a new key.");
        }
    }

    static final class RefundOutcomeUnknown extends ApiProblem {
        RefundOutcomeUnknown(String referenceId, Duration retryAfter) {
            this(referenceId, retryAfter, "The payment provider's answer is not known yet; retry with the same Idempotency-Key later.");
        }

        RefundOutcomeUnknown(String referenceId, Duration retryAfter, String detail) {
            super(ProblemType.REFUND_OUTCOME_UNKNOWN, detail);
            with("referenceId", referenceId);
            retryAfter(retryAfter);
        }

        static RefundOutcomeUnknown ofSecondCharge(String referenceId, Duration retryAfter) {
            return new RefundOutcomeUnknown(referenceId, retryAfter,
                    "The payment provider's answer is not known yet; call again later.");
        }
    }

    static final class RefundNotOpen extends ApiProblem {
        RefundNotOpen(String referenceId, String state) {
            super(ProblemType.REFUND_NOT_OPEN, "Refund " + referenceId + " is " + state + "; only an UNKNOWN refund the PSP still does not show "
                            + "can be abandoned.");
            with("state", state);
        }
    }
}
