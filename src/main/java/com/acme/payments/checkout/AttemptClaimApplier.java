package com.acme.payments.checkout;

import java.math.BigDecimal;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.checkout.AttemptStore.Claim;
import com.acme.payments.order.OrderStore;

/**
 * The checkout claim, in one committed transaction: the order's open attempt ({@link AttemptStore} decides,
 * by its partial unique index, whether this call owns a new one), and the rule that a new attempt on a
 * PAYMENT_FAILED order makes it payable again ({@link OrderStore#reopenIfFailed}), both or neither. The
 * provider's fixed request ({@code pspRequest}) is stored with a new attempt in the same commit, so the call
 * after it and every reconcile send exactly what was fixed here.
 */
@Component
class AttemptClaimApplier {

    private final AttemptStore attempts;
    private final OrderStore orders;

    AttemptClaimApplier(AttemptStore attempts, OrderStore orders) {
        this.attempts = attempts;
        this.orders = orders;
    }

    /** A claim with nothing fixed by the provider (the tests' and the Gateway's case). */
    @Transactional
    Claim claim(long orderId, BigDecimal amount, String currency, String returnUrl, String newReference) {
        return claim(orderId, amount, currency, returnUrl, newReference, null); // already in this transaction
    }

    @Transactional
    Claim claim(long orderId, BigDecimal amount, String currency, String returnUrl, String newReference,
            String pspRequest) {
        Claim claim = attempts.claim(orderId, amount, currency, returnUrl, newReference, pspRequest);
        if (claim.owner()) {
            orders.reopenIfFailed(orderId);
        }
        return claim;
    }
}
