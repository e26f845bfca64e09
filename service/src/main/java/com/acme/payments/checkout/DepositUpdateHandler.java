package com.acme.payments.checkout;

import org.springframework.stereotype.Component;

import com.acme.payments.psp.PaymentUpdateHandler;
import com.acme.payments.psp.PspPayment;

/**
 * Deposits reported by the PSP (webhook or replay). A payment not linked by id yet is found by our
 * reference, so a webhook that beats the create response is applied at once.
 */
@Component
class DepositUpdateHandler implements PaymentUpdateHandler {

    private final AttemptStore attempts;
    private final DepositApplier applier;

    DepositUpdateHandler(AttemptStore attempts, DepositApplier applier) {
        this.attempts = attempts;
        this.applier = applier;
    }

    @Override
    public boolean handles(PspPayment payment) {
        return payment.paymentType() == null || "DEPOSIT".equalsIgnoreCase(payment.paymentType());
    }

    @Override
    public Applied apply(PspPayment payment) {
        return attempts.findForPayment(payment.id(), payment.referenceId())
                .map(attempt -> applier.apply(attempt, payment))
                .orElse(Applied.UNMATCHED);
    }

    @Override
    public boolean knows(String paymentId, String referenceId) {
        return (paymentId != null || referenceId != null) && attempts.findForPayment(paymentId, referenceId).isPresent();
    }
}
