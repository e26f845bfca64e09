package com.acme.payments.refund;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.jobs.SweepLoop.Outcome;
import com.acme.payments.psp.PspPayment;

/**
 * Settles a refund from what the PSP says about its REFUND payment. A refund the PSP accepted (any
 * non-failed state) is DONE; DECLINED/CANCELLED is a confirmed failure and gives the reservation back.
 */
@Component
class RefundApplier {

    private static final Logger log = LoggerFactory.getLogger(RefundApplier.class);

    private final RefundStore refunds;
    private final RefundMetrics metrics;

    RefundApplier(RefundStore refunds, RefundMetrics metrics) {
        this.refunds = refunds;
        this.metrics = metrics;
    }

    /** True when this call settled the refund; false when it was settled already. */
    @Transactional
    boolean settle(Refund refund, PspPayment payment) {
        boolean failed = payment.paymentState().isFailure();
        Optional<Refund> settled = refunds.settle(refund.id(), failed ? RefundState.FAILED : RefundState.DONE,
                payment.id(), payment.errorCode(), payment.errorMessage());
        if (settled.isEmpty()) {
            Refund current = refunds.find(refund.id()).orElseThrow();
            if (failed && current.state() == RefundState.DONE) {
                log.error("refund referenceId={} is DONE but the PSP now reports {}: needs an operator",
                        refund.referenceId(), payment.state());
            }
            return false;
        }
        metrics.settled(failed ? "failed" : "done");
        log.info("refund settled referenceId={} state={} payment={}", refund.referenceId(), settled.get().state(),
                payment.id());
        return true;
    }

    /** The sweep's settle: writes nothing once another instance holds the lease ({@code FENCED}). */
    @Transactional
    Outcome settleUnderLease(Refund refund, PspPayment payment) {
        if (!refunds.holdLease(refund.id(), refund.leaseVersion())) {
            return Outcome.FENCED;
        }
        settle(refund, payment);
        return Outcome.RESOLVED;
    }

    /** A confirmed 4xx to our create call: nothing was created, the reservation goes back. */
    @Transactional
    boolean reject(Refund refund, String errorCode, String errorMessage) {
        boolean settled = refunds.settle(refund.id(), RefundState.FAILED, null, errorCode, errorMessage).isPresent();
        if (settled) {
            metrics.settled("rejected");
        }
        return settled;
    }
}
