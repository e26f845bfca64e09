package com.acme.payments.checkout;

import java.math.BigDecimal;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.checkout.AttemptStore.Claim;
import com.acme.payments.order.OrderStore;

/**
 * The checkout claim, in one committed transaction: the order's open attempt ({@link AttemptStore} decides,
 * by its partial unique index, whether this call owns a new one), and the rule that a new attempt on a
 * PAYMENT_FAILED order makes it payable again ({@link OrderStore#reopenIfFailed}), both or neither.
 */
@Component
class AttemptClaimApplier {

    private final AttemptStore attempts;
    private final OrderStore orders;

    AttemptClaimApplier(AttemptStore attempts, OrderStore orders) {
        this.attempts = attempts;
        this.orders = orders;
    }

    @Transactional
    Claim claim(long orderId, BigDecimal amount, String currency, String returnUrl, String newReference) {
        Claim claim = attempts.claim(orderId, amount, currency, returnUrl, newReference);
        if (claim.owner()) {
            orders.reopenIfFailed(orderId);
        }
        return claim;
    }
}
