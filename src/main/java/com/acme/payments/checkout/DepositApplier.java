package com.acme.payments.checkout;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.jobs.SweepLoop.Outcome;
import com.acme.payments.common.money.Amounts;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStore;
import com.acme.payments.order.PaymentTransition;
import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.OutboxStore;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PaymentUpdateHandler.Applied;
import com.acme.payments.psp.PspPayment;

/**
 * Applies a deposit's PSP state to its attempt and order in one transaction: the attempt settles
 * conditionally, the order moves by the whitelist, and PAID writes the {@code order_paid} outbox row in
 * the same commit. Every path that learns a payment's state (create answer, reconcile, webhook, return,
 * sweeps) comes through here.
 */
@Component
class DepositApplier {

    private final AttemptStore attempts;
    private final OrderStore orders;
    private final OutboxStore outbox;

    DepositApplier(AttemptStore attempts, OrderStore orders, OutboxStore outbox) {
        this.attempts = attempts;
        this.orders = orders;
        this.outbox = outbox;
    }

    @Transactional
    Applied apply(Attempt attempt, PspPayment payment) {
        PaymentState state = payment.paymentState();
        if (state.isFailure()) {
            attempts.markFailed(attempt.id(), AttemptStore.FailureReason.DECLINED, payment.id(), payment.errorCode(),
                    payment.errorMessage());
        } else {
            attempts.promoteReady(attempt.id(), payment.id(), payment.redirectUrl());
        }
        PaymentTransition transition = PaymentTransition.forState(state);
        if (transition == null) {
            orders.apply(attempt.orderId(), attempt.id(), PaymentTransition.TO_PROCESSING, payment);
            return Applied.NO_CHANGE;
        }
        boolean moved = orders.apply(attempt.orderId(), attempt.id(), transition, payment);
        if (moved && transition == PaymentTransition.TO_PAID) {
            Order order = orders.findById(attempt.orderId()).orElseThrow();
            outbox.enqueue(orderPaid(order, payment));
        }
        return moved ? Applied.APPLIED : Applied.ALREADY_PAST;
    }

    /** The sweep's apply: only while its lease on the attempt is still the current one. */
    @Transactional
    Outcome applyUnderLease(Attempt attempt, PspPayment payment) {
        if (!attempts.holdLease(attempt.id(), attempt.leaseVersion())) {
            return Outcome.FENCED;
        }
        apply(attempt, payment);
        return Outcome.RESOLVED;
    }

    private static OutboxEntry orderPaid(Order order, PspPayment payment) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("orderRef", order.orderRef());
        body.put("pspPaymentId", payment.id());
        body.put("amount", Amounts.canonical(payment.amount(), payment.currency()).toPlainString());
        body.put("currency", payment.currency());
        return new OutboxEntry("order_paid", "order", order.orderRef(), payment.id(), body);
    }
}
