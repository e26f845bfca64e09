package com.acme.payments.capture;

import com.acme.payments.checkout.AttemptStore;
import com.acme.payments.checkout.DepositApplier;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.sweep.Outcome;

import java.time.Duration;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Settles a capture/void from the payment's confirmed state and moves the order by the same whitelist
 * as every other path, in one transaction. An AUTHORIZED payment confirms nothing: the call may not
 * have arrived yet, so the operation stays open.
 */
@Component
class OperationApplier {

    private final OperationStore operations;
    private final AttemptStore attempts;
    private final DepositApplier deposits;

    OperationApplier(OperationStore operations, AttemptStore attempts, DepositApplier deposits) {
        this.operations = operations;
        this.attempts = attempts;
        this.deposits = deposits;
    }

    /**
     * The sweep's apply, inside its fenced transaction ({@code FencedApplier}): a payment still AUTHORIZED
     * once the operation is older than {@code notPerformedAfter} closes the operation as not performed,
     * so an UNKNOWN capture/void never blocks its order for good.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    Outcome applySwept(Operation operation, PspPayment payment, Duration notPerformedAfter) {
        boolean settled = payment.paymentState() == PaymentState.AUTHORIZED
                ? operations.settleNotPerformed(operation.id(), notPerformedAfter)
                : apply(operation, payment);
        return settled ? Outcome.RESOLVED : Outcome.STILL_UNKNOWN;
    }

    /** True when the operation is settled (by this call or before). */
    @Transactional
    boolean apply(Operation operation, PspPayment payment) {
        PaymentState state = payment.paymentState();
        if (!state.isFinal()) {
            return false;
        }
        boolean wanted = operation.kind() == Operation.Kind.CAPTURE ? state == PaymentState.COMPLETED
                : state == PaymentState.CANCELLED;
        operations.settle(operation.id(), wanted, payment.errorCode(), wanted ? null : "payment is " + state);
        attempts.findForPayment(payment.id(), payment.referenceId())
                .ifPresent(attempt -> deposits.applyJoined(attempt, payment));
        return true;
    }
}
