package com.acme.payments.refund;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.order.OrderStore;

/**
 * What a refund reserves, given back and taken again, always inside another refund Applier's write. An
 * order's refund reserves on {@code orders.refunded_amount} ({@link OrderStore}, the owner of
 * {@code orders}); a second charge's refund reserves the charge itself: its row is the charge's one
 * IN_FLIGHT/UNKNOWN/DONE refund (the unique index {@code psp_refund_one_live_per_charge}), and leaving
 * those states is the release.
 *
 * <p>Lock order, everywhere: a refund row before its order row. Settling, failing and abandoning update
 * the refund row, then release on the order; reviving locks the refund row first, then the order; the
 * sweep's lease locks the refund row before any of these. A claim locks only the order (its refund row is
 * new). So no two refund transactions ever wait for each other in opposite orders.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class RefundReservationApplier {

    private final RefundStore refunds;
    private final OrderStore orders;

    RefundReservationApplier(RefundStore refunds, OrderStore orders) {
        this.refunds = refunds;
        this.orders = orders;
    }

    /** Gives back what a refund the caller just moved to FAILED had reserved. */
    void release(Refund refund) {
        if (refund.ofSecondCharge()) {
            return; // it released by leaving the live states: nothing to give back on the order
        }
        if (!orders.releaseRefund(refund.orderId(), refund.amount())) {
            throw new IllegalStateException("refund " + refund.id() + ": reservation to release is missing");
        }
    }

    /**
     * An abandoned refund the PSP made after all: DONE again, reserved again if there is room (the order's
     * remainder, or a second charge without another live refund). The refund row is locked before the
     * order (the lock order above), then re-read under both locks. {@code NO_ROOM} changes nothing: the
     * caller reports an over-refund.
     */
    Revival reviveAbandoned(long id, String paymentId, String pspState) {
        Refund refund = refunds.lock(id);
        orders.lockForRefund(refund.orderId());
        Refund locked = refunds.find(id).orElseThrow(); // under both locks: settled money
        if (!locked.abandoned()) {
            return Revival.NOT_ABANDONED;
        }
        if (!reserveAgain(locked)) {
            return Revival.NO_ROOM;
        }
        if (!refunds.reviveAbandoned(id, paymentId, pspState)) {
            throw new IllegalStateException("refund " + id + " abandoned under its lock but not revived");
        }
        return Revival.REVIVED;
    }

    private boolean reserveAgain(Refund refund) {
        if (refund.ofSecondCharge()) {
            return refunds.liveForCharge(refund.duplicateChargeId()).isEmpty();
        }
        return orders.reserveRefund(refund.orderId(), refund.amount());
    }

    /** What {@link #reviveAbandoned} did: DONE again, not abandoned (any more), or no room to book it again. */
    enum Revival {
        REVIVED, NOT_ABANDONED, NO_ROOM
    }
}
