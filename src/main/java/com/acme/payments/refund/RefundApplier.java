package com.acme.payments.refund;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.jobs.SweepLoop.Outcome;
import com.acme.payments.order.OrderStore;
import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.OutboxStore;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PspPayment;

/**
 * Settles a refund from what the PSP says about its REFUND payment, in one transaction. An open refund
 * the PSP accepted (any non-failed state) is DONE with that {@code pspState}; DECLINED/CANCELLED is a
 * confirmed failure and gives the reservation back. A DONE refund the PSP declines later becomes FAILED
 * — the reservation released by the same conditional UPDATE's row, so once — with a
 * {@code refund_failed} effect. An abandoned refund the PSP made after all is DONE again. The same for
 * an order's refund and a second charge's ({@code refundKey} null in its effect); only what is reserved
 * differs, and {@link RefundStore} knows that.
 */
@Component
class RefundApplier {

    private static final Logger log = LoggerFactory.getLogger(RefundApplier.class);

    private final RefundStore refunds;
    private final RefundMetrics metrics;
    private final OrderStore orders;
    private final OutboxStore outbox;

    RefundApplier(RefundStore refunds, RefundMetrics metrics, OrderStore orders, OutboxStore outbox) {
        this.refunds = refunds;
        this.metrics = metrics;
        this.orders = orders;
        this.outbox = outbox;
    }

    /** True when this call changed the refund (settled it, failed a DONE one, or revived an abandoned one). */
    @Transactional
    boolean settle(Refund refund, PspPayment payment) {
        PaymentState state = payment.paymentState();
        boolean failed = state.isFailure();
        Optional<Refund> settled = refunds.settle(refund.id(), failed ? RefundState.FAILED : RefundState.DONE,
                payment.id(), payment.state(), payment.errorCode(), payment.errorMessage());
        if (settled.isPresent()) {
            metrics.settled(refund, failed ? "failed" : "done");
            log.info("refund settled referenceId={} state={} pspState={} payment={}", refund.referenceId(),
                    settled.get().state(), payment.state(), payment.id());
            return true;
        }
        return failed ? failLate(refund, payment) : trackAccepted(refund, payment);
    }

    private boolean failLate(Refund refund, PspPayment payment) {
        Optional<Refund> failed = refunds.failDone(refund.id(), payment.id(), payment.state(), payment.errorCode(),
                payment.errorMessage());
        if (failed.isEmpty()) {
            return false; // FAILED already: nothing is released twice
        }
        outbox.enqueue(refundFailed(failed.get()));
        metrics.settled(refund, "reversed");
        log.error("refund referenceId={} was DONE, the PSP now reports {}: FAILED, reservation released",
                refund.referenceId(), payment.state());
        return true;
    }

    private boolean trackAccepted(Refund refund, PspPayment payment) {
        if (refunds.trackPspState(refund.id(), payment.id(), payment.state())) {
            return true;
        }
        Refund current = refunds.find(refund.id()).orElseThrow();
        if (!current.abandoned()) {
            return false;
        }
        RefundStore.Revival revival = refunds.reviveAbandoned(refund.id(), payment.id(), payment.state());
        if (revival == RefundStore.Revival.NOT_ABANDONED) {
            return false; // revived meanwhile by the webhook or the poll
        }
        if (revival == RefundStore.Revival.REVIVED) {
            metrics.settled(refund, "revived");
            log.error("refund referenceId={} was abandoned but the PSP made it ({}): DONE again, reserved again",
                    refund.referenceId(), payment.state());
            return true;
        }
        log.error("refund referenceId={} was abandoned but the PSP made it ({}) and the remainder no longer holds it:"
                + " over-refunded, needs an operator", refund.referenceId(), payment.state());
        return false;
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

    /** UNKNOWN → FAILED (abandoned) with the reservation released, in one transaction. */
    @Transactional
    Optional<Refund> abandon(String referenceId, String actor, String reason) {
        Optional<Refund> abandoned = refunds.abandon(referenceId, actor, reason);
        abandoned.ifPresent(r -> metrics.settled(r, "abandoned"));
        return abandoned;
    }

    /** A confirmed 4xx to our create call: nothing was created, the reservation goes back. */
    @Transactional
    boolean reject(Refund refund, String errorCode, String errorMessage) {
        boolean settled = refunds.settle(refund.id(), RefundState.FAILED, null, null, errorCode, errorMessage)
                .isPresent();
        if (settled) {
            metrics.settled(refund, "rejected");
        }
        return settled;
    }

    private OutboxEntry refundFailed(Refund refund) {
        String orderRef = orders.findById(refund.orderId()).orElseThrow().orderRef();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", "refund_failed");
        body.put("orderRef", orderRef);
        body.put("refundKey", refund.refundKey());
        body.put("referenceId", refund.referenceId());
        body.put("amount", refund.amount().toPlainString());
        body.put("currency", refund.currency());
        body.put("errorCode", refund.errorCode());
        String source = refund.pspPaymentId() != null ? refund.pspPaymentId() : refund.referenceId();
        return new OutboxEntry("refund_failed", "order", orderRef, source, body);
    }
}
