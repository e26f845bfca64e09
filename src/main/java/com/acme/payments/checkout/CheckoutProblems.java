package com.acme.payments.checkout;

import java.time.Duration;

import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;

/** The checkout answers that are not a redirect, each with its stable problem type. */
public final class CheckoutProblems {

    private CheckoutProblems() {
    }

    static final class OrderNotPayable extends ApiProblem {
        OrderNotPayable(String orderRef, String status) {
            super(ProblemType.ORDER_NOT_PAYABLE, "Order " + orderRef + " is " + status + " and cannot be paid again.");
        }
    }

    static final class CheckoutInProgress extends ApiProblem {
        CheckoutInProgress(String referenceId, Duration retryAfter) {
            super(ProblemType.CHECKOUT_IN_PROGRESS, "Another request is creating this order's payment; retry shortly.");
            with("referenceId", referenceId);
            retryAfter(retryAfter);
        }
    }

    public static final class PaymentOutcomeUnknownProblem extends ApiProblem {
        public PaymentOutcomeUnknownProblem(String referenceId, Duration retryAfter) {
            super(ProblemType.PAYMENT_OUTCOME_UNKNOWN, "The payment provider's answer was lost and the payment could not be found yet; retry later.");
            with("referenceId", referenceId);
            retryAfter(retryAfter);
        }
    }

    static final class CheckoutDeclined extends ApiProblem {
        CheckoutDeclined(String referenceId, String errorCode) {
            super(ProblemType.CHECKOUT_DECLINED, "The payment was declined; the order can be paid with a new checkout.");
            with("referenceId", referenceId);
            with("errorCode", errorCode);
        }
    }

    public static final class PspRejectedProblem extends ApiProblem {
        public PspRejectedProblem(String referenceId, String errorCode) {
            super(ProblemType.PSP_REJECTED, "The payment provider refused to create the payment; nothing was charged.");
            with("referenceId", referenceId);
            with("errorCode", errorCode);
        }
    }

    static final class AttemptNotOpen extends ApiProblem {
        AttemptNotOpen(String referenceId, String state) {
            super(ProblemType.ATTEMPT_NOT_OPEN, "Attempt " + referenceId + " is " + state + "; only an UNKNOWN attempt the PSP still does not show "
                            + "can be abandoned.");
            with("state", state);
        }
    }
}
