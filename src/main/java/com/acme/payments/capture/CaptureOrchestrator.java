package com.acme.payments.capture;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.checkout.CheckoutProblems.PaymentOutcomeUnknownProblem;
import com.acme.payments.checkout.CheckoutProblems.PspRejectedProblem;
import com.acme.payments.checkout.CheckoutProperties;
import com.acme.payments.common.jobs.SweepLoop;
import com.acme.payments.common.jobs.SweepProperties;
import com.acme.payments.common.jobs.Unclassified;
import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStatus;
import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PspClient;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.PspRejected;

/**
 * Capture and void of an AUTHORIZED payment; NOT transactional. The operation row commits before the
 * call; an ambiguous answer is reconciled with {@code GET /payments/{id}}, never re-POSTed.
 */
@Component
public class CaptureOrchestrator {

    private static final Logger log = LoggerFactory.getLogger(CaptureOrchestrator.class);

    private final OperationStore operations;
    private final OperationApplier applier;
    private final PspClient psp;
    private final CheckoutProperties properties;
    private final SweepProperties sweep;

    CaptureOrchestrator(OperationStore operations, OperationApplier applier, PspClient psp,
            CheckoutProperties properties, SweepProperties sweep) {
        this.operations = operations;
        this.applier = applier;
        this.psp = psp;
        this.properties = properties;
        this.sweep = sweep;
    }

    void perform(Order order, Operation.Kind kind, String actor) {
        if (order.status() != OrderStatus.AUTHORIZED || order.pspPaymentId() == null) {
            throw new OrderNotAuthorized(order.orderRef(), order.status().name());
        }
        OperationStore.Claim claim = operations.claim(order.id(), kind, order.pspPaymentId(), actor);
        Operation operation = claim.operation();
        if (!claim.owner()) {
            settleOrAnswerUnknown(operation);
            return;
        }
        PspPayment payment;
        try {
            payment = kind == Operation.Kind.CAPTURE ? psp.capture(operation.pspPaymentId(), null)
                    : psp.voidPayment(operation.pspPaymentId());
        } catch (PspRejected rejected) {
            operations.settle(operation.id(), false, rejected.errorCode(), rejected.getMessage());
            throw new PspRejectedProblem(null, rejected.errorCode());
        } catch (PaymentOutcomeUnknown unknown) {
            operations.markUnknown(operation.id());
            log.warn("{} outcome unknown for orderRef={}: {}", kind, order.orderRef(), unknown.getMessage());
            settleOrAnswerUnknown(operations.find(operation.id()));
            return;
        } catch (RuntimeException | Error unclassified) {
            Unclassified.markUnknown(operations, operation.id(), unclassified);
            log.error("{} for orderRef={} ended unclassified, marked UNKNOWN", kind, order.orderRef(), unclassified);
            throw unclassified;
        }
        if (!applier.apply(operation, payment)) {
            settleOrAnswerUnknown(operations.find(operation.id()));
        }
    }

    /** The non-owner's path: read the payment's current truth and settle from it. */
    boolean resolve(Operation operation) {
        return resolve(operation, false) == SweepLoop.Outcome.RESOLVED;
    }

    /** Shared with the sweep, which passes {@code underLease} so a taken-over lease writes nothing. */
    public SweepLoop.Outcome resolve(Operation operation, boolean underLease) {
        Optional<PspPayment> payment;
        try {
            payment = psp.get(operation.pspPaymentId());
        } catch (RuntimeException unreachable) {
            return SweepLoop.Outcome.UNREACHABLE;
        }
        if (payment.isEmpty()) {
            return SweepLoop.Outcome.STILL_UNKNOWN;
        }
        if (underLease) {
            return applier.applyUnderLease(operation, payment.get(), sweep.inFlightAge());
        }
        return applier.apply(operation, payment.get()) ? SweepLoop.Outcome.RESOLVED : SweepLoop.Outcome.STILL_UNKNOWN;
    }

    private void settleOrAnswerUnknown(Operation operation) {
        if (operation.isOpen() && !resolve(operation)) {
            throw new PaymentOutcomeUnknownProblem(null, properties.retryAfter());
        }
    }

    static final class OrderNotAuthorized extends ApiProblem {
        OrderNotAuthorized(String orderRef, String status) {
            super(ProblemType.ORDER_NOT_AUTHORIZED, "Only AUTHORIZED orders can be captured or voided; " + orderRef + " is " + status + ".");
        }
    }
}
