package com.acme.payments.refund;

/** IN_FLIGHT (owner mid-POST), UNKNOWN (reconcile by reference), DONE, FAILED (reservation given back). */
enum RefundState {
    IN_FLIGHT, UNKNOWN, DONE, FAILED;

    boolean isOpen() {
        return this == IN_FLIGHT || this == UNKNOWN;
    }
}
