package com.acme.payments.refund;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
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
import com.acme.payments.order.OrderStore;
import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.OutboxStore;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PaymentUpdateHandler;
import com.acme.payments.psp.PspPayment;

/**
 * Settles a refund from what the PSP says about its REFUND payment, in one transaction. An open refund
 * the PSP accepted (any non-failed state) is DONE with that {@code pspState}; DECLINED/CANCELLED is a
 * confirmed failure and gives the reservation back. A DONE refund the PSP declines later becomes FAILED
 * — the reservation released by the same conditional UPDATE's row, so once — with a
 * {@code refund_failed} effect. An abandoned refund the PSP made after all is DONE again. The same for
 * an order's refund and a second charge's ({@code refundKey} null in its effect); only what is reserved
 * differs, and {@link RefundReservationApplier} knows that. Final is final: a report contradicting a final
 * {@code pspState} (DECLINED for a COMPLETED refund, COMPLETED for a declined one) changes nothing and is a
 * discrepancy, as is an abandoned refund made after all that no longer fits. The webhook's and the
 * replay's REFUND reports come as a {@link PaymentUpdateHandler}, inside the inbox's transaction; they
 * never touch the order's payment status.
 */
@Component
class RefundApplier implements PaymentUpdateHandler {

    private static final Logger log = LoggerFactory.getLogger(RefundApplier.class);

    private final RefundStore refunds;
    private final RefundReservationApplier reservations;
    private final RefundMetrics metrics;
    private final OrderStore orders;
    private final OutboxStore outbox;
    private final DiscrepancyRecorder discrepancies;
    private final ExternalRefundApplier external;
    private final RefundEvents events;

    RefundApplier(RefundStore refunds, RefundReservationApplier reservations, RefundMetrics metrics,
            OrderStore orders, OutboxStore outbox, DiscrepancyRecorder discrepancies, ExternalRefundApplier external,
            RefundEvents events) {
        this.events = events;
        this.refunds = refunds;
        this.reservations = reservations;
        this.metrics = metrics;
        this.orders = orders;
        this.outbox = outbox;
        this.discrepancies = discrepancies;
        this.external = external;
    }

    /** What one PSP report did to a refund. */
    enum Result {
        /** Settled it, failed a DONE one, or revived an abandoned one. */
        CHANGED,
        /** Already at or past it. */
        UNCHANGED,
        /** It contradicts the refund's final PSP state: nothing changed, recorded as a discrepancy. */
        CONTRADICTED
    }

    @Override
    public boolean handles(PspPayment payment) {
        return payment.isRefund();
    }

    /**
     * A reported refund, inside the inbox's transaction (joins, never opens). One that no refund of ours
     * matches but refunds a payment of ours was made elsewhere: booked once ({@link ExternalRefundApplier}),
     * then reported to like ours.
     */
    @Override
    @Transactional(propagation = Propagation.MANDATORY)
    public Applied apply(PspPayment payment) {
        Optional<Refund> known = refunds.findForPayment(payment.id(), payment.referenceId());
        if (known.isEmpty()) {
            ExternalRefundApplier.Booking booking = external.book(payment);
            switch (booking.kind()) {
                case BOOKED:
                    return Applied.APPLIED;
                case TWICE:
                    return Applied.NO_CHANGE; // recorded as a discrepancy: nothing of ours moves
                case NOT_OURS:
                    return Applied.UNMATCHED;
                case KNOWN:
                    known = Optional.of(booking.refund());
                    break;
            }
        }
        return switch (report(known.get(), payment)) {
            case CHANGED -> Applied.APPLIED;
            case UNCHANGED -> Applied.ALREADY_PAST;
            case CONTRADICTED -> Applied.CONTRADICTED;
        };
    }

    @Override
    public boolean knows(String paymentId, String referenceId) {
        return (paymentId != null || referenceId != null) && refunds.findForPayment(paymentId, referenceId).isPresent();
    }

    /** True when this call changed the refund (settled it, failed a DONE one, or revived an abandoned one). */
    @Transactional
    boolean settle(Refund refund, PspPayment payment) {
        return report(refund, payment) == Result.CHANGED;
    }

    /**
     * {@link #settle} of a refund read DONE (the straggler poll's claim): the settle of an open refund is left
     * out, as it cannot match: no refund ever returns to IN_FLIGHT or UNKNOWN, so its UPDATE would match zero
     * rows whatever happened since the read (one statement fewer per polled refund that changes).
     */
    @Transactional
    boolean settleAccepted(Refund refund, PspPayment payment) {
        if (refund.state() != RefundState.DONE) {
            return settle(refund, payment);
        }
        Result result = payment.paymentState().isFailure() ? failLate(refund, payment) : trackAccepted(refund, payment);
        return result == Result.CHANGED;
    }

    /** {@link #settle}, telling a contradicting report from a late or repeated one (the webhook's answer). */
    private Result report(Refund refund, PspPayment payment) {
        PaymentState state = payment.paymentState();
        boolean failed = state.isFailure();
        Optional<Refund> settled = refunds.settle(refund.id(), failed ? RefundState.FAILED : RefundState.DONE,
                payment.id(), payment.state(), payment.errorCode(), payment.errorMessage());
        if (settled.isPresent()) {
            if (failed) {
                reservations.release(settled.get());
            }
            events.settled(settled.get());
            metrics.settled(refund, failed ? "failed" : "done");
            log.info("refund settled referenceId={} state={} pspState={} payment={}", refund.referenceId(),
                    settled.get().state(), payment.state(), payment.id());
            return Result.CHANGED;
        }
        return failed ? failLate(refund, payment) : trackAccepted(refund, payment);
    }

    private Result failLate(Refund refund, PspPayment payment) {
        Optional<Refund> failed = refunds.failDone(refund.id(), payment.id(), payment.state(), payment.errorCode(),
                payment.errorMessage());
        if (failed.isEmpty()) {
            // FAILED already (nothing is released twice), or COMPLETED at the PSP: the money left, nothing moves
            Refund current = refunds.find(refund.id()).orElseThrow();
            boolean completed = current.state() == RefundState.DONE && "COMPLETED".equals(current.pspState());
            return completed ? contradicted(current, payment) : Result.UNCHANGED;
        }
        reservations.release(failed.get());
        outbox.enqueue(refundFailed(failed.get()));
        events.settled(failed.get());
        metrics.settled(refund, "reversed");
        log.error("refund referenceId={} was DONE, the PSP now reports {}: FAILED, reservation released",
                refund.referenceId(), payment.state());
        return Result.CHANGED;
    }

    private Result trackAccepted(Refund refund, PspPayment payment) {
        if (refunds.trackPspState(refund.id(), payment.id(), payment.state())) {
            events.tracked(refund.id(), payment.state());
            return Result.CHANGED;
        }
        Refund current = refunds.find(refund.id()).orElseThrow();
        if (!current.abandoned()) {
            boolean declined = current.state() == RefundState.FAILED
                    && PaymentState.of(current.pspState()).isFailure();
            // a COMPLETED for a refund the PSP had declined: the reservation stays released, an operator decides
            return declined && payment.paymentState() == PaymentState.COMPLETED ? contradicted(current, payment)
                    : Result.UNCHANGED;
        }
        RefundReservationApplier.Revival revival = reservations.reviveAbandoned(refund.id(), payment.id(),
                payment.state());
        if (revival == RefundReservationApplier.Revival.NOT_ABANDONED) {
            return Result.UNCHANGED; // revived meanwhile by the webhook or the poll
        }
        if (revival == RefundReservationApplier.Revival.REVIVED) {
            events.tracked(refund.id(), payment.state());
            metrics.settled(refund, "revived");
            log.error("refund referenceId={} was abandoned but the PSP made it ({}): DONE again, reserved again",
                    refund.referenceId(), payment.state());
            return Result.CHANGED;
        }
        Refund underLock = refunds.find(refund.id()).orElseThrow(); // the revive took the order lock
        if (underLock.abandoned()) { // not revived meanwhile by another report: the remainder no longer holds it
            overRefunded(underLock, payment);
        }
        return Result.UNCHANGED;
    }

    /** A report against the refund's final PSP state: nothing changes; an operator settles it. */
    private Result contradicted(Refund current, PspPayment payment) {
        Order order = orders.findById(current.orderId()).orElseThrow();
        discrepancies.record(Discrepancy.of(DiscrepancyKind.CONTRADICTING_REPORT, order.orderRef(),
                refundPaymentId(current, payment), current.amount(), current.currency(),
                "refund " + current.referenceId() + " is " + current.pspState() + " at the PSP; the PSP now reports "
                        + payment.state() + (payment.errorCode() == null ? "" : " " + payment.errorCode())));
        return Result.CONTRADICTED;
    }

    /**
     * The PSP made an abandoned refund after all, and the remainder no longer holds it (a newer refund took
     * it): the PSP refunded more than was paid. The order row is locked by the revive attempt, so the
     * excess is read as it stands.
     */
    private void overRefunded(Refund current, PspPayment payment) {
        Order order = orders.findById(current.orderId()).orElseThrow();
        if (current.ofSecondCharge()) { // another refund of the charge is live: this whole refund is the excess
            discrepancies.record(Discrepancy.of(DiscrepancyKind.OVER_REFUND, order.orderRef(),
                    refundPaymentId(current, payment), current.amount(), current.currency(),
                    "abandoned refund " + current.referenceId() + " of a second charge was made by the PSP after all ("
                            + payment.state() + ") while another refund of that charge is live: refunded twice,"
                            + " needs an operator"));
            return;
        }
        BigDecimal excess = order.refundedAmount().add(current.amount()).subtract(order.paidAmount());
        discrepancies.record(Discrepancy.of(DiscrepancyKind.OVER_REFUND, order.orderRef(),
                refundPaymentId(current, payment), excess.max(BigDecimal.ZERO), current.currency(),
                "abandoned refund " + current.referenceId() + " (" + current.amount().toPlainString() + ") was made by "
                        + "the PSP after all (" + payment.state() + "); with " + order.refundedAmount().toPlainString()
                        + " already refunded of " + order.paidAmount().toPlainString() + " paid for payment "
                        + order.pspPaymentId() + ": over-refunded, needs an operator"));
    }

    private static String refundPaymentId(Refund current, PspPayment payment) {
        return current.pspPaymentId() != null ? current.pspPaymentId() : payment.id();
    }

    /** UNKNOWN → FAILED (abandoned) with the reservation released, in one transaction. */
    @Transactional
    Optional<Refund> abandon(String referenceId, String actor, String reason) {
        Optional<Refund> abandoned = refunds.abandon(referenceId, actor, reason);
        abandoned.ifPresent(reservations::release);
        abandoned.ifPresent(events::settled);
        abandoned.ifPresent(r -> metrics.settled(r, "abandoned"));
        return abandoned;
    }

    /** A confirmed 4xx to our create call: nothing was created, the reservation goes back. */
    @Transactional
    boolean reject(Refund refund, String errorCode, String errorMessage) {
        Optional<Refund> failed = refunds.settle(refund.id(), RefundState.FAILED, null, null, errorCode,
                errorMessage);
        failed.ifPresent(reservations::release);
        failed.ifPresent(events::settled);
        boolean settled = failed.isPresent();
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
