package com.acme.payments.refund;

import org.springframework.stereotype.Component;

import com.acme.payments.order.OrderStore;
import com.acme.payments.outbox.ShopEvents;

/**
 * A refund's shop event, in the transaction that moved it: {@code refund.succeeded} when its PSP state became
 * COMPLETED, {@code refund.failed} when it became FAILED (declined, rejected, failed late after acceptance, or
 * abandoned by an operator), external refunds and second charges' refunds alike. {@code data} is the refund as
 * GET /api/admin/refunds/{referenceId} answers it: the refund view with its {@code orderRef}. Callers call only
 * when their write moved the row, so each transition is one event; a revived refund that completes sends
 * {@code refund.succeeded} after its {@code refund.failed}.
 */
@Component
class RefundEvents {

    private static final String COMPLETED = "COMPLETED";

    private final ShopEvents events;
    private final OrderStore orders;
    private final RefundStore refunds;

    RefundEvents(ShopEvents events, OrderStore orders, RefundStore refunds) {
        this.events = events;
        this.orders = orders;
        this.refunds = refunds;
    }

    /** The refund as this transaction left it: its event if it is now FAILED or COMPLETED, else none. */
    void settled(Refund refund) {
        if (!events.enabled()) {
            return;
        }
        String type = refund.state() == RefundState.FAILED ? ShopEvents.REFUND_FAILED
                : refund.state() == RefundState.DONE && COMPLETED.equals(refund.pspState()) ? ShopEvents.REFUND_SUCCEEDED
                : null;
        if (type != null) {
            String orderRef = orders.findById(refund.orderId()).orElseThrow().orderRef();
            events.publish(type, orderRef, new RefundController.RefundLookup(orderRef,
                    RefundController.RefundResponse.of(refund)));
        }
    }

    /** A refund whose PSP state this transaction moved to {@code pspState}: read again only for an event. */
    void tracked(long refundId, String pspState) {
        if (events.enabled() && COMPLETED.equals(pspState)) {
            settled(refunds.find(refundId).orElseThrow());
        }
    }
}
