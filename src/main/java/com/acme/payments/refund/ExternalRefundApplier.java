package com.acme.payments.refund;

import java.math.BigDecimal;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.discrepancy.Discrepancy;
import com.acme.payments.discrepancy.DiscrepancyKind;
import com.acme.payments.discrepancy.DiscrepancyRecorder;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStatus;
import com.acme.payments.order.OrderStore;
import com.acme.payments.psp.PspPayment;

/**
 * Books a refund of one of our payments that no refund of ours matches, made in Stripe's Dashboard or the
 * PSP's back office: one {@code origin = external} row under the PSP's id, already settled (DONE, or
 * FAILED when first seen failed), so every later report of it takes {@link RefundApplier}'s state moves
 * like ours (a failure releases it once, final is final). The money has left, so a DONE one is booked on
 * {@code refunded_amount} past the remainder if need be, and the excess is an {@code over_refund}. A refund
 * of a second charge becomes that charge's refund; if the charge has a live refund already, the PSP
 * refunded it twice: an {@code over_refund} for the whole amount, nothing booked. Inside the inbox's
 * transaction; the new row is locked before its order (the lock order of {@link RefundReservationApplier}).
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class ExternalRefundApplier {

    private static final Logger log = LoggerFactory.getLogger(ExternalRefundApplier.class);

    private final RefundStore refunds;
    private final OrderStore orders;
    private final DiscrepancyRecorder discrepancies;
    private final RefundMetrics metrics;
    private final RefundEvents events;

    ExternalRefundApplier(RefundStore refunds, OrderStore orders, DiscrepancyRecorder discrepancies,
            RefundMetrics metrics, RefundEvents events) {
        this.events = events;
        this.refunds = refunds;
        this.orders = orders;
        this.discrepancies = discrepancies;
        this.metrics = metrics;
    }

    /** What {@link #book} made of a REFUND payment no refund of ours matched, and the refund it is, if any. */
    record Booking(Kind kind, Refund refund) {

        enum Kind {
            /** Not a refund of a payment of ours (or not one we can book yet): the receipt waits for the replay. */
            NOT_OURS,
            /** Booked now. */
            BOOKED,
            /** Booked already (a concurrent report): its state moves are the caller's. */
            KNOWN,
            /** A second charge refunded twice: recorded as a discrepancy, nothing booked. */
            TWICE
        }

        static Booking of(Kind kind) {
            return new Booking(kind, null);
        }
    }

    Booking book(PspPayment payment) {
        String parent = payment.parentPaymentId();
        if (parent == null || payment.id() == null || payment.amount() == null || payment.amount().signum() <= 0
                || payment.currency() == null) {
            return Booking.of(Booking.Kind.NOT_OURS);
        }
        Optional<Order> paid = orders.findByPaymentId(parent);
        if (paid.isPresent() && paid.get().status() != OrderStatus.PAID) {
            return Booking.of(Booking.Kind.NOT_OURS); // its payment's truth is not in yet: the replay books it once PAID
        }
        Optional<RefundStore.ChargeOf> charge = paid.isPresent() ? Optional.empty() : refunds.chargeOfPayment(parent);
        Optional<Order> order = paid.isPresent() ? paid : charge.flatMap(c -> orders.findById(c.orderId()));
        if (order.isEmpty()) {
            return Booking.of(Booking.Kind.NOT_OURS);
        }
        boolean failed = payment.paymentState().isFailure();
        Optional<Refund> booked = refunds.insertExternal(order.get().id(), charge.map(RefundStore.ChargeOf::id)
                .orElse(null), failed ? RefundState.FAILED : RefundState.DONE, payment.id(), payment.amount(),
                payment.currency(), payment.state(), payment.errorCode(), payment.errorMessage());
        if (booked.isEmpty()) {
            Optional<Refund> known = refunds.findForPayment(payment.id(), null);
            if (known.isPresent()) {
                return new Booking(Booking.Kind.KNOWN, known.get());
            }
            refundedTwice(order.get(), payment);
            return Booking.of(Booking.Kind.TWICE);
        }
        Refund refund = booked.get();
        if (!failed && charge.isEmpty()) {
            overRefunded(orders.bookRefundMadeElsewhere(refund.orderId(), refund.amount()), refund);
        }
        events.settled(refund);
        metrics.settled(refund, "external");
        log.warn("refund made outside the service booked orderRef={} payment={} parent={} amount={} {} state={} "
                + "pspState={}", order.get().orderRef(), payment.id(), parent, refund.amount().toPlainString(),
                refund.currency(), refund.state(), payment.state());
        return new Booking(Booking.Kind.BOOKED, refund);
    }

    /** The order's refunds now add up to more than it paid: the excess, for an operator. */
    private void overRefunded(Order order, Refund refund) {
        BigDecimal paid = order.paidAmount() == null ? BigDecimal.ZERO : order.paidAmount();
        BigDecimal excess = order.refundedAmount().subtract(paid);
        if (excess.signum() <= 0) {
            return;
        }
        discrepancies.record(Discrepancy.of(DiscrepancyKind.OVER_REFUND, order.orderRef(), refund.pspPaymentId(),
                excess.min(refund.amount()), refund.currency(), "refund " + refund.pspPaymentId() + " ("
                        + refund.amount().toPlainString() + ") was made at the PSP outside the service; the order's "
                        + "refunds now add up to " + order.refundedAmount().toPlainString() + " of "
                        + paid.toPlainString() + " paid for payment " + order.pspPaymentId()
                        + ": over-refunded, needs an operator"));
    }

    private void refundedTwice(Order order, PspPayment payment) {
        discrepancies.record(Discrepancy.of(DiscrepancyKind.OVER_REFUND, order.orderRef(), payment.id(),
                payment.amount(), payment.currency(), "refund " + payment.id() + " of second charge "
                        + payment.parentPaymentId() + " was made at the PSP outside the service while another "
                        + "refund of that charge is live: refunded twice, needs an operator"));
        log.error("refund made outside the service payment={} refunds second charge {} that has a live refund: "
                + "over_refund recorded", payment.id(), payment.parentPaymentId());
    }
}
