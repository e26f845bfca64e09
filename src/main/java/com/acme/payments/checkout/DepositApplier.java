package com.acme.payments.checkout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.money.Amounts;
import com.acme.payments.discrepancy.Discrepancy;
import com.acme.payments.discrepancy.DiscrepancyKind;
import com.acme.payments.discrepancy.DiscrepancyRecorder;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStatus;
import com.acme.payments.order.OrderStore;
import com.acme.payments.order.PaymentReport;
import com.acme.payments.order.PaymentTransition;
import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.OutboxStore;
import com.acme.payments.psp.PaymentPayloadFault;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PaymentUpdateHandler;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.secondcharge.DuplicateChargeMetrics;
import com.acme.payments.secondcharge.DuplicateChargeStore;

/**
 * Applies a deposit's PSP state to its attempt and order in one transaction: the attempt settles
 * conditionally, the order moves by the whitelist, and PAID writes the {@code order_paid} outbox row in
 * the same commit, as every move writes its shop event ({@link PaymentEvents}): one INSERT for both. Every
 * path that learns a payment's state (create answer, reconcile, webhook, return, sweeps) comes through here. A COMPLETED payment the order did not book (not its current
 * attempt's, or an abandoned one's) is a second charge: recorded once, with a {@code duplicate_charge}
 * effect in the same commit. A DECLINED/CANCELLED for the payment that paid the order contradicts a final
 * truth: nothing moves, and it is recorded as a discrepancy. The webhook's and the replay's reports come
 * as a {@link PaymentUpdateHandler}, inside the inbox's transaction: the attempt is found here, by the
 * payment's id or our reference, so a webhook that beats the create response is applied at once.
 */
@Component
public class DepositApplier implements PaymentUpdateHandler {

    private static final Logger log = LoggerFactory.getLogger(DepositApplier.class);

    private final AttemptStore attempts;
    private final OrderStore orders;
    private final OutboxStore outbox;
    private final DuplicateChargeStore duplicates;
    private final DuplicateChargeMetrics metrics;
    private final DiscrepancyRecorder discrepancies;
    private final PaymentEvents events;

    DepositApplier(AttemptStore attempts, OrderStore orders, OutboxStore outbox, DuplicateChargeStore duplicates,
            DuplicateChargeMetrics metrics, DiscrepancyRecorder discrepancies, PaymentEvents events) {
        this.events = events;
        this.attempts = attempts;
        this.orders = orders;
        this.outbox = outbox;
        this.duplicates = duplicates;
        this.metrics = metrics;
        this.discrepancies = discrepancies;
    }

    @Override
    public boolean handles(PspPayment payment) {
        return payment.paymentType() == null || "DEPOSIT".equalsIgnoreCase(payment.paymentType());
    }

    /**
     * A reported deposit, inside the inbox's transaction (joins, never opens). A payment that
     * {@linkplain PspPayment#supersedesProvisional() supersedes a provisional id} is its reference's one
     * payment, so its attempt is the reference's: one look-up, where the id would find nothing while the
     * attempt still holds the provisional one.
     */
    @Override
    @Transactional(propagation = Propagation.MANDATORY)
    public Applied apply(PspPayment payment) {
        Optional<Attempt> attempt = payment.supersedesProvisional() && payment.referenceId() != null
                ? attempts.findByReference(payment.referenceId())
                : attempts.findForPayment(payment.id(), payment.referenceId());
        return attempt.map(found -> settle(found, payment).applied()).orElse(Applied.UNMATCHED);
    }

    @Override
    public boolean knows(String paymentId, String referenceId) {
        return (paymentId != null || referenceId != null) && attempts.findForPayment(paymentId, referenceId).isPresent();
    }

    /** An attempt's payment, else a second charge's (an abandoned attempt's payment keeps its first id there). */
    @Override
    public Optional<Long> orderOf(String paymentId) {
        if (paymentId == null) {
            return Optional.empty();
        }
        Optional<Long> attempt = attempts.findForPayment(paymentId, null).map(Attempt::orderId);
        return attempt.isPresent() ? attempt : duplicates.orderOf(paymentId);
    }

    @Transactional
    Applied apply(Attempt attempt, PspPayment payment) {
        return settle(attempt, payment).applied();
    }

    /** {@link #apply} as part of another Applier's write (a capture/void moving its order): joins, never opens. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Applied applyJoined(Attempt attempt, PspPayment payment) {
        return settle(attempt, payment).applied();
    }

    /**
     * The owner's create answer, applied like any other; returns the attempt as this transaction left it,
     * so the checkout answers without reading it again. Re-read only when the attempt had already left
     * the states the answer may settle (a webhook or sweep settled it first).
     */
    @Transactional
    Attempt applyAnswer(Attempt attempt, PspPayment payment) {
        Settled settled = settle(attempt, payment);
        return settled.attempt() != null ? settled.attempt() : attempts.find(attempt.id()).orElseThrow();
    }

    private Settled settle(Attempt attempt, PspPayment payment) {
        PaymentState state = payment.paymentState();
        if (state == PaymentState.COMPLETED && (payment.amount() == null || payment.currency() == null)) {
            throw new PaymentPayloadFault(PaymentPayloadFault.Kind.MISSING_AMOUNT, payment.amount() == null ? "amount" : "currency",
                    "COMPLETED payment " + payment.id() + " without amount or currency");
        }
        if (state.isFailure() && contradictsThePayingPayment(attempt, payment)) {
            return new Settled(null, Applied.CONTRADICTED);
        }
        boolean superseded = supersedesTheAttemptsId(attempt, payment)
                && attempts.supersedePayment(attempt.id(), attempt.pspPaymentId(), payment.id());
        if (superseded) {
            log.debug("attempt payment id superseded, referenceId={} payment={} (was {})", attempt.referenceId(),
                    payment.id(), attempt.pspPaymentId());
        }
        Attempt settled = (state.isFailure()
                ? attempts.markFailed(attempt.id(), AttemptStore.FailureReason.DECLINED, payment.id(),
                        payment.errorCode(), payment.errorMessage())
                : attempts.promoteReady(attempt.id(), payment.id(), payment.redirectUrl())).orElse(null);
        // a closed attempt's payment, found by id next time (a superseded id is this payment's already)
        if (settled == null && !superseded && payment.id() != null
                && attempts.linkPayment(attempt.id(), payment.id()) == AttemptStore.Link.LINKED_TO_ANOTHER) {
            // the PSP reports a second payment under this attempt's reference: the attempt keeps its first;
            // the order below books this one only if it is its own (a COMPLETED one is a second charge)
            log.warn("second payment for one attempt, referenceId={} payment={} state={} (attempt keeps payment={})",
                    attempt.referenceId(), payment.id(), state, attempt.pspPaymentId());
        }
        return new Settled(settled, moveOrder(attempt, payment));
    }

    /**
     * The provider's lasting id for the attempt's one payment, while the attempt still holds the provisional
     * id the provider gave before the payment existed (PspPayment#supersedesProvisional): the attempt takes
     * the lasting id, once, so the id finds it and a later report of this payment is not taken for a second
     * payment under its reference. Never where a reference may carry several payments: there the attempt
     * keeps its first and a second id is warned about below.
     */
    private static boolean supersedesTheAttemptsId(Attempt attempt, PspPayment payment) {
        return payment.supersedesProvisional() && payment.id() != null && attempt.pspPaymentId() != null
                && !attempt.pspPaymentId().equals(payment.id());
    }

    private Applied moveOrder(Attempt attempt, PspPayment payment) {
        PaymentReport report = payment.orderReport();
        if (report.move() == PaymentTransition.TO_PROCESSING) { // under way: at most PROCESSING, nothing settled
            orders.markProcessing(attempt.orderId(), attempt.id(), report);
            return Applied.NO_CHANGE;
        }
        Optional<OrderStore.Moved> moved = orders.apply(attempt.orderId(), attempt.id(), report);
        if (moved.isEmpty()) {
            return report.move() == PaymentTransition.TO_PAID ? secondChargeOrDuplicate(attempt, payment)
                    : Applied.ALREADY_PAST;
        }
        // the move's effects in one statement: PAID's order_paid, then the shop's event
        List<OutboxEntry> effects = new ArrayList<>(2);
        if (report.move() == PaymentTransition.TO_PAID) {
            effects.add(orderPaid(moved.get().order().orderRef(), payment));
        }
        events.moved(moved.get(), report.move(), payment.paymentState()).ifPresent(effects::add);
        outbox.enqueue(effects);
        return Applied.APPLIED;
    }

    /**
     * A failure reported for the payment that paid the order: the money was taken, so neither the attempt
     * nor the order moves (the order's whitelist already keeps PAID; the attempt must not turn FAILED
     * either). Read without a lock: a PAID order never leaves PAID, so a stale read can only miss a PAID
     * committed meanwhile, and then the whitelist still keeps the order.
     */
    private boolean contradictsThePayingPayment(Attempt attempt, PspPayment payment) {
        Order order = orders.findById(attempt.orderId()).orElseThrow();
        if (order.status() != OrderStatus.PAID || payment.id() == null || !payment.id().equals(order.pspPaymentId())) {
            return false;
        }
        discrepancies.record(Discrepancy.of(DiscrepancyKind.CONTRADICTING_REPORT, order.orderRef(), payment.id(),
                order.paidAmount(), order.paidCurrency(), "payment paid the order (COMPLETED); the PSP now reports "
                        + payment.state() + (payment.errorCode() == null ? "" : " " + payment.errorCode())));
        return true;
    }

    /** What one apply did: the attempt row it settled (null when already past), and the order's outcome. */
    private record Settled(Attempt attempt, Applied applied) {
    }

    /** Money moved but the order did not book it: unless it is the order's own payment again, a second charge. */
    private Applied secondChargeOrDuplicate(Attempt attempt, PspPayment payment) {
        Order order = orders.findById(attempt.orderId()).orElseThrow();
        if (order.status() == OrderStatus.PAID && payment.id().equals(order.pspPaymentId())) {
            return Applied.ALREADY_PAST;
        }
        String currency = payment.currency();
        java.math.BigDecimal amount = Amounts.canonical(payment.amount(), currency);
        if (!duplicates.record(order.id(), payment.id(), amount, currency)) {
            return Applied.ALREADY_PAST; // flagged once already
        }
        outbox.enqueue(duplicateCharge(order, payment.id(), amount, currency));
        metrics.detectedOnCommit();
        discrepancies.duplicateChargeRecorded();
        log.error("duplicate charge orderRef={} payment={} referenceId={} (order status={} payment={})",
                order.orderRef(), payment.id(), attempt.referenceId(), order.status(), order.pspPaymentId());
        return Applied.DUPLICATE_CHARGE;
    }

    private static OutboxEntry duplicateCharge(Order order, String paymentId, java.math.BigDecimal amount,
            String currency) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", "duplicate_charge");
        body.put("orderRef", order.orderRef());
        body.put("pspPaymentId", paymentId);
        body.put("amount", amount.toPlainString());
        body.put("currency", currency);
        return new OutboxEntry("duplicate_charge", "order", order.orderRef(), paymentId, body);
    }

    private static OutboxEntry orderPaid(String orderRef, PspPayment payment) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("orderRef", orderRef);
        body.put("pspPaymentId", payment.id());
        body.put("amount", Amounts.canonical(payment.amount(), payment.currency()).toPlainString());
        body.put("currency", payment.currency());
        return new OutboxEntry("order_paid", "order", orderRef, payment.id(), body);
    }
}
