package com.acme.payments.checkout;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PspPayment;

/**
 * Settles the refund of a second charge from what the PSP says about the REFUND payment: any accepted
 * state is DONE, DECLINED/CANCELLED is FAILED — also later, for one already DONE (the charge may then be
 * refunded anew).
 */
@Component
class DuplicateRefundApplier {

    private static final Logger log = LoggerFactory.getLogger(DuplicateRefundApplier.class);

    private final DuplicateChargeStore duplicates;
    private final DuplicateChargeMetrics metrics;

    DuplicateRefundApplier(DuplicateChargeStore duplicates, DuplicateChargeMetrics metrics) {
        this.duplicates = duplicates;
        this.metrics = metrics;
    }

    /** True when this call changed the refund's state. */
    @Transactional
    boolean settle(String referenceId, PspPayment refund) {
        PaymentState state = refund.paymentState();
        boolean failed = state.isFailure();
        if (duplicates.settle(referenceId, !failed, refund.id(), refund.errorCode())) {
            metrics.refund(failed ? "failed" : "done");
            log.info("duplicate charge refund referenceId={} settled {}", referenceId, failed ? "FAILED" : "DONE");
            return true;
        }
        if (failed && duplicates.failDone(referenceId, refund.errorCode())) {
            metrics.refund("reversed");
            log.error("duplicate charge refund referenceId={} was DONE, the PSP now reports {}: refundable again",
                    referenceId, refund.state());
            return true;
        }
        return false;
    }

    @Transactional
    Optional<Boolean> settleUnderLease(DuplicateCharge charge, PspPayment refund) {
        if (!duplicates.holdLease(charge.pspPaymentId(), charge.leaseVersion())) {
            return Optional.empty();
        }
        return Optional.of(settle(charge.refundReferenceId(), refund));
    }
}
