package com.acme.payments.refund;

import java.time.Duration;

import org.springframework.http.HttpStatus;

import com.acme.payments.common.web.ApiProblem;

/** The refund answers that are not a settled refund. */
final class RefundProblems {

    private RefundProblems() {
    }

    static final class RefundExceedsRemainder extends ApiProblem {
        RefundExceedsRemainder() {
            super(HttpStatus.UNPROCESSABLE_CONTENT, "refund-exceeds-remainder", "Refund exceeds remainder",
                    "The amount is more than what is left to refund on this order (open refunds included).");
        }
    }

    static final class OrderNotRefundable extends ApiProblem {
        OrderNotRefundable(String status) {
            super(HttpStatus.CONFLICT, "order-not-refundable", "Order not refundable",
                    "Only PAID orders can be refunded; this one is " + status + ".");
        }
    }

    static final class RefundBlockedByUnknown extends ApiProblem {
        RefundBlockedByUnknown(Duration retryAfter) {
            super(HttpStatus.CONFLICT, "refund-blocked-by-unknown", "Refund blocked by an unresolved refund",
                    "Another refund on this order has an unknown outcome; it must be resolved first.");
            retryAfter(retryAfter);
        }
    }

    static final class RefundKeyReused extends ApiProblem {
        RefundKeyReused() {
            super(HttpStatus.UNPROCESSABLE_CONTENT, "refund-key-reused", "Refund key reused",
                    "This Idempotency-Key was used for a refund with a different amount or currency; use a new key.");
        }
    }

    static final class RefundOutcomeUnknown extends ApiProblem {
        RefundOutcomeUnknown(String referenceId, Duration retryAfter) {
            super(HttpStatus.CONFLICT, "refund-outcome-unknown", "Refund outcome unknown",
                    "The payment provider's answer is not known yet; retry with the same Idempotency-Key later.");
            with("referenceId", referenceId);
            retryAfter(retryAfter);
        }
    }

    static final class RefundNotOpen extends ApiProblem {
        RefundNotOpen(String referenceId, String state) {
            super(HttpStatus.CONFLICT, "refund-not-open", "Refund not open",
                    "Refund " + referenceId + " is " + state + "; only an UNKNOWN refund the PSP still does not show "
                            + "can be abandoned.");
            with("state", state);
        }
    }
}
