package com.acme.payments.capture;

import com.acme.payments.checkout.CheckoutProblems.PaymentOutcomeUnknownProblem;
import com.acme.payments.checkout.CheckoutProblems.PspRejectedProblem;
import com.acme.payments.checkout.CheckoutProperties;
import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStatus;
import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PaymentProvider;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.PspRejected;
import com.acme.payments.sweep.FencedApplier;
import com.acme.payments.sweep.Lease;
import com.acme.payments.sweep.Outcome;
import com.acme.payments.sweep.Resolver;
import com.acme.payments.sweep.SweepJob;
import com.acme.payments.sweep.SweepProperties;
import com.acme.payments.sweep.Unclassified;

import java.math.BigDecimal;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Capture and void of an AUTHORIZED payment; NOT transactional. The operation row commits before the
 * call; an ambiguous answer is reconciled with {@code GET /payments/{id}}, never re-POSTed.
 */
@Component
public class CaptureOrchestrator implements Resolver<Operation> {

    private static final Logger log = LoggerFactory.getLogger(CaptureOrchestrator.class);

    private final OperationStore operations;
    private final OperationApplier applier;
    private final PaymentProvider psp;
    private final CheckoutProperties properties;
    private final SweepProperties sweep;
    private final FencedApplier fenced;

    CaptureOrchestrator(OperationStore operations, OperationApplier applier, PaymentProvider psp,
            CheckoutProperties properties, SweepProperties sweep, FencedApplier fenced) {
        this.operations = operations;
        this.applier = applier;
        this.psp = psp;
        this.properties = properties;
        this.sweep = sweep;
        this.fenced = fenced;
    }

    /** Capture/void operations, in the checkout group: one PSP outage pauses both. Not gauged. */
    @Override
    public SweepJob<Operation> job() {
        return new SweepJob<>("operation-sweep", "checkout", operations, null);
    }

    /**
     * Captures ({@code amount} null: all that is authorized) or voids. A repeat under the caller's {@code key}
     * answers what the first answered, whatever the order's status now; the same key for another request is
     * refused. The amount is fixed with the operation at the claim: whoever settles it acts on that one.
     */
    void perform(Order order, Operation.Kind kind, String actor, BigDecimal amount, String key) {
        Optional<Operation> earlier = key == null ? Optional.empty() : operations.byKey(order.id(), key);
        if (earlier.isPresent()) {
            replay(earlier.get(), kind, amount);
            return;
        }
        if (order.status() != OrderStatus.AUTHORIZED || order.pspPaymentId() == null) {
            throw new OrderNotAuthorized(order.orderRef(), order.status().name());
        }
        if (amount != null && amount.compareTo(order.amount()) > 0) {
            throw new CaptureExceedsAuthorized(amount, order);
        }
        OperationStore.Claim claim = operations.claim(order.id(), kind, order.pspPaymentId(), actor, amount, key);
        Operation operation = claim.operation();
        if (!claim.owner()) {
            if (key != null && key.equals(operation.idempotencyKey())) {
                replay(operation, kind, amount);
            } else {
                settleOrAnswerUnknown(operation);
            }
            return;
        }
        PspPayment payment;
        try {
            payment = kind == Operation.Kind.CAPTURE ? psp.capture(operation.pspPaymentId(), operation.amount(), operation.referenceId())
                    : psp.voidPayment(operation.pspPaymentId(), operation.referenceId());
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
        return resolve(operation, Lease.NONE) == Outcome.RESOLVED;
    }

    /** Shared with the sweep, which passes its {@code lease} so a taken-over lease writes nothing. */
    @Override
    public Outcome resolve(Operation operation, Lease lease) {
        Optional<PspPayment> payment;
        try {
            payment = psp.get(operation.pspPaymentId());
        } catch (RuntimeException unreachable) {
            return Outcome.UNREACHABLE;
        }
        if (payment.isEmpty()) {
            return Outcome.STILL_UNKNOWN;
        }
        return fenced.apply(operations, lease, () -> lease.held()
                ? applier.applySwept(operation, payment.get(), sweep.inFlightAge())
                : applier.apply(operation, payment.get()) ? Outcome.RESOLVED : Outcome.STILL_UNKNOWN);
    }

    /** The first answer again: the order's view once done, its refusal once failed, still unknown while open. */
    private void replay(Operation operation, Operation.Kind kind, BigDecimal amount) {
        if (!operation.sameRequest(kind, amount)) {
            throw new IdempotencyKeyReused();
        }
        settleOrAnswerUnknown(operation);
        Operation settled = operation.isOpen() ? operations.find(operation.id()) : operation;
        if ("FAILED".equals(settled.state())) {
            throw new PspRejectedProblem(null, operations.errorCode(settled.id()));
        }
    }

    private void settleOrAnswerUnknown(Operation operation) {
        if (operation.isOpen() && !resolve(operation)) {
            throw new PaymentOutcomeUnknownProblem(null, properties.retryAfter());
        }
    }

    static final class CaptureExceedsAuthorized extends ApiProblem {
        CaptureExceedsAuthorized(BigDecimal amount, Order order) {
            super(ProblemType.CAPTURE_EXCEEDS_AUTHORIZED, "Cannot capture " + amount.toPlainString() + " of "
                    + order.amount().toPlainString() + " " + order.currency() + " authorized for " + order.orderRef() + ".");
        }
    }

    static final class IdempotencyKeyReused extends ApiProblem {
        IdempotencyKeyReused() {
            super(ProblemType.IDEMPOTENCY_KEY_REUSED,
                    "This Idempotency-Key was used for another capture or void of this order; use a new key.");
        }
    }

    static final class OrderNotAuthorized extends ApiProblem {
        OrderNotAuthorized(String orderRef, String status) {
            super(ProblemType.ORDER_NOT_AUTHORIZED, "Only AUTHORIZED orders can be captured or voided; " + orderRef + " is " + status + ".");
        }
    }
}
