package com.acme.payments.checkout;

import java.util.Optional;

import org.springframework.stereotype.Component;

import com.acme.payments.psp.PaymentUpdateHandler;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.secondcharge.DuplicateChargeStore;

/**
 * Deposits reported by the PSP (webhook or replay). A payment not linked by id yet is found by our
 * reference, so a webhook that beats the create response is applied at once.
 */
@Component
class DepositUpdateHandler implements PaymentUpdateHandler {

    private final AttemptStore attempts;
    private final DepositApplier applier;
    private final DuplicateChargeStore duplicates;

    DepositUpdateHandler(AttemptStore attempts, DepositApplier applier, DuplicateChargeStore duplicates) {
        this.attempts = attempts;
        this.applier = applier;
        this.duplicates = duplicates;
    }

    @Override
    public boolean handles(PspPayment payment) {
        return payment.paymentType() == null || "DEPOSIT".equalsIgnoreCase(payment.paymentType());
    }

    /**
     * A payment that {@linkplain PspPayment#supersedesProvisional() supersedes a provisional id} is its
     * reference's one payment, so its attempt is the reference's: one look-up, where the id would find nothing
     * while the attempt still holds the provisional one.
     */
    @Override
    public Applied apply(PspPayment payment) {
        Optional<Attempt> attempt = payment.supersedesProvisional() && payment.referenceId() != null
                ? attempts.findByReference(payment.referenceId())
                : attempts.findForPayment(payment.id(), payment.referenceId());
        return attempt.map(found -> applier.apply(found, payment)).orElse(Applied.UNMATCHED);
    }

    @Override
    public boolean knows(String paymentId, String referenceId) {
        return (paymentId != null || referenceId != null) && attempts.findForPayment(paymentId, referenceId).isPresent();
    }

    /** An attempt's payment, else a second charge's (an abandoned attempt's payment keeps its first id there). */
    @Override
    public Optional<Long> orderOf(String paymentId) {
        if (paymentId == null) {
            return Optional.empty();
        }
        Optional<Long> attempt = attempts.findForPayment(paymentId, null).map(Attempt::orderId);
        return attempt.isPresent() ? attempt : duplicates.orderOf(paymentId);
    }
}
