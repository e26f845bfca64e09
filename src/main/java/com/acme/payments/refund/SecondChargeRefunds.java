package com.acme.payments.refund;

import java.math.BigDecimal;

/**
 * The full refund of a second charge, for the feature that records second charges: the same refund
 * mechanism as an order's (claim, one PSP POST, settle, sweep, straggler poll, abandon), whose reservation
 * is the charge itself. Exactly one live refund per charge, however often and from wherever it is asked.
 */
public interface SecondChargeRefunds {

    /**
     * Claims and makes the charge's refund, or replays its live one (reconciled first when open).
     *
     * @throws com.acme.payments.common.web.ApiProblem {@code refund-outcome-unknown} while the live refund
     *         stays IN_FLIGHT or UNKNOWN
     */
    Answer refund(Charge charge, String actor, String reason);

    /** The second charge to refund: a {@code duplicate_charge} row as its owner reads it. */
    record Charge(long id, long orderId, String orderRef, String pspPaymentId, BigDecimal amount, String currency) {
    }

    /** The charge's refund after the call, and whether this call created it (201) or replayed it (200). */
    record Answer(String referenceId, String state, String pspState, String errorCode, String requestedBy,
            boolean created) {
    }
}
