package com.acme.payments.psp;

import java.util.Optional;

/**
 * Applies what the PSP says about one payment to our records. Implemented by the Applier of the feature
 * that owns the records (checkout's {@code DepositApplier} for deposits, refund's {@code RefundApplier} for
 * refunds), so the webhook inbox never calls back into them directly. Runs inside the caller's
 * transaction, together with the inbox receipt: {@link #apply} is {@code MANDATORY} (ArchitectureTests).
 */
public interface PaymentUpdateHandler {

    /**
     * Whether this handler may own payments of this kind (by {@code paymentType}). Several may: the first
     * whose {@link #apply} matches a record of its own decides; {@link Applied#UNMATCHED} passes it on.
     */
    boolean handles(PspPayment payment);

    Applied apply(PspPayment payment);

    /**
     * Whether one of this handler's records knows the payment, by the provider's id or by our reference
     * (either may be null). Read-only; tells a provider's event about our payments from others on one account.
     */
    default boolean knows(String paymentId, String referenceId) {
        return false;
    }

    /**
     * The order (its id) one of this handler's records ties a provider payment id to: an attempt's payment
     * or a second charge's; empty when none. Read-only; a dispute names only the payment.
     */
    default Optional<Long> orderOf(String paymentId) {
        return Optional.empty();
    }

    enum Applied {
        /** The state moved something. */
        APPLIED,
        /** Our records are already at or past this state: a duplicate or a late event. */
        ALREADY_PAST,
        /** The state moves nothing (a non-final state). */
        NO_CHANGE,
        /** No attempt or order knows this payment yet: keep the receipt open for the replay job. */
        UNMATCHED,
        /** A COMPLETED payment that is not the order's booked one: money moved twice, recorded as such. */
        DUPLICATE_CHARGE,
        /**
         * The report contradicts a final truth (a DECLINED for a COMPLETED refund or for the payment that
         * paid the order, a COMPLETED for a declined refund): nothing moved, recorded as a discrepancy.
         */
        CONTRADICTED
    }
}
