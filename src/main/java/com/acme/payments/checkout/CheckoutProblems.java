package com.acme.payments.checkout;

import java.time.Duration;

import org.springframework.http.HttpStatus;

import com.acme.payments.common.web.ApiProblem;

/** The checkout answers that are not a redirect, each with its stable problem type. */
final class CheckoutProblems {

    private CheckoutProblems() {
    }

    static final class OrderNotPayable extends ApiProblem {
        OrderNotPayable(String orderRef, String status) {
            super(HttpStatus.CONFLICT, "order-not-payable", "Order not payable",
                    "Order " + orderRef + " is " + status + " and cannot be paid again.");
        }
    }

    static final class CheckoutInProgress extends ApiProblem {
        CheckoutInProgress(String referenceId, Duration retryAfter) {
            super(HttpStatus.CONFLICT, "checkout-in-progress", "Checkout in progress",
                    "Another request is creating this order's payment; retry shortly.");
            with("referenceId", referenceId);
            retryAfter(retryAfter);
        }
    }

    static final class PaymentOutcomeUnknownProblem extends ApiProblem {
        PaymentOutcomeUnknownProblem(String referenceId, Duration retryAfter) {
            super(HttpStatus.CONFLICT, "payment-outcome-unknown", "Payment outcome unknown",
                    "The payment provider's answer was lost and the payment could not be found yet; retry later.");
            with("referenceId", referenceId);
            retryAfter(retryAfter);
        }
    }

    static final class CheckoutDeclined extends ApiProblem {
        CheckoutDeclined(String referenceId, String errorCode) {
            super(HttpStatus.UNPROCESSABLE_CONTENT, "checkout-declined", "Checkout declined",
                    "The payment was declined; the order can be paid with a new checkout.");
            with("referenceId", referenceId);
            with("errorCode", errorCode);
        }
    }

    static final class PspRejectedProblem extends ApiProblem {
        PspRejectedProblem(String referenceId, String errorCode) {
            super(HttpStatus.BAD_GATEWAY, "psp-rejected", "Payment provider rejected the request",
                    "The payment provider refused to create the payment; nothing was charged.");
            with("referenceId", referenceId);
            with("errorCode", errorCode);
        }
    }

    static final class AttemptNotOpen extends ApiProblem {
        AttemptNotOpen(String referenceId, String state) {
            super(HttpStatus.CONFLICT, "attempt-not-open", "Attempt not open",
                    "Attempt " + referenceId + " is " + state + "; only an UNKNOWN attempt the PSP still does not show "
                            + "can be abandoned.");
            with("state", state);
        }
    }
}
