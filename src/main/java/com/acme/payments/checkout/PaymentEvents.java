package com.acme.payments.checkout;

import java.util.Optional;

import org.springframework.stereotype.Component;

import com.acme.payments.order.OrderStatus;
import com.acme.payments.order.OrderStore;
import com.acme.payments.order.OrderView;
import com.acme.payments.order.PaymentTransition;
import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.ShopEvents;
import com.acme.payments.psp.PaymentState;

/**
 * Which shop event an order's payment move is, written in the move's transaction with the order as GET
 * /api/orders/{ref} shows it after the move. AUTHORIZED → {@code payment.authorized}; PAID →
 * {@code payment.succeeded}; PAYMENT_FAILED → {@code payment.voided} when a cancelled payment leaves an AUTHORIZED
 * order (the void, or an authorization that lapsed), else {@code payment.failed} with the PSP's
 * {@code errorCode}. Every declined attempt that moves the order is one {@code payment.failed}: the order is then
 * free for a new attempt, which may end in its own event. A move that matched no row sends nothing, so each
 * transition is one event.
 */
@Component
class PaymentEvents {

    private final ShopEvents events;

    PaymentEvents(ShopEvents events) {
        this.events = events;
    }

    /** The move's event, for the Applier to write with its other effects; empty while events are off. */
    Optional<OutboxEntry> moved(OrderStore.Moved moved, PaymentTransition move, PaymentState state) {
        return events.entry(type(move, moved.from(), state), moved.order().orderRef(), OrderView.of(moved.order()));
    }

    static String type(PaymentTransition move, OrderStatus from, PaymentState state) {
        return switch (move) {
            case TO_PAID -> ShopEvents.PAYMENT_SUCCEEDED;
            case TO_AUTHORIZED -> ShopEvents.PAYMENT_AUTHORIZED;
            case TO_FAILED -> from == OrderStatus.AUTHORIZED && state == PaymentState.CANCELLED
                    ? ShopEvents.PAYMENT_VOIDED : ShopEvents.PAYMENT_FAILED;
            case TO_PROCESSING -> throw new IllegalArgumentException("a payment under way is no event");
        };
    }
}
