package com.acme.payments.checkout;

import org.springframework.stereotype.Component;

import com.acme.payments.psp.PaymentUpdateHandler;
import com.acme.payments.psp.PspPayment;

/** PSP webhooks (and replays) for the REFUND payments of second charges; other refunds pass on (UNMATCHED). */
@Component
class DuplicateRefundUpdateHandler implements PaymentUpdateHandler {

    private final DuplicateChargeStore duplicates;
    private final DuplicateRefundApplier applier;

    DuplicateRefundUpdateHandler(DuplicateChargeStore duplicates, DuplicateRefundApplier applier) {
        this.duplicates = duplicates;
        this.applier = applier;
    }

    @Override
    public boolean handles(PspPayment payment) {
        return payment.isRefund();
    }

    @Override
    public Applied apply(PspPayment payment) {
        return duplicates.findByRefund(payment.id(), payment.referenceId())
                .map(charge -> applier.settle(charge.refundReferenceId(), payment) ? Applied.APPLIED
                        : Applied.ALREADY_PAST)
                .orElse(Applied.UNMATCHED);
    }
}
