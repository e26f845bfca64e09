package com.acme.payments.refund;

import org.springframework.stereotype.Component;

import com.acme.payments.psp.PaymentUpdateHandler;
import com.acme.payments.psp.PspPayment;

/**
 * PSP webhooks (and replays) for REFUND payments: they settle the matching refund attempt and never
 * touch the order's payment status.
 */
@Component
class RefundUpdateHandler implements PaymentUpdateHandler {

    private final RefundStore refunds;
    private final RefundApplier applier;

    RefundUpdateHandler(RefundStore refunds, RefundApplier applier) {
        this.refunds = refunds;
        this.applier = applier;
    }

    @Override
    public boolean handles(PspPayment payment) {
        return payment.isRefund();
    }

    @Override
    public Applied apply(PspPayment payment) {
        return refunds.findForPayment(payment.id(), payment.referenceId())
                .map(refund -> switch (applier.report(refund, payment)) {
                    case CHANGED -> Applied.APPLIED;
                    case UNCHANGED -> Applied.ALREADY_PAST;
                    case CONTRADICTED -> Applied.CONTRADICTED;
                })
                .orElse(Applied.UNMATCHED);
    }

    @Override
    public boolean knows(String paymentId, String referenceId) {
        return (paymentId != null || referenceId != null) && refunds.findForPayment(paymentId, referenceId).isPresent();
    }
}
