package com.acme.payments.checkout;

import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

import com.acme.payments.capture.Operation;
import com.acme.payments.capture.OperationStore;
import com.acme.payments.common.ops.Unresolved;
import com.acme.payments.common.ops.UnresolvedSource;

/** Checkout attempts and capture/void operations that are IN_FLIGHT or UNKNOWN, for the operators' list. */
@Component
class CheckoutUnresolved implements UnresolvedSource {

    private final AttemptStore attempts;
    private final OperationStore operations;

    CheckoutUnresolved(AttemptStore attempts, OperationStore operations) {
        this.attempts = attempts;
        this.operations = operations;
    }

    @Override
    public List<Unresolved> unresolved(int limit) {
        List<Unresolved> all = new ArrayList<>(attempts.unresolved(limit));
        all.addAll(operations.unresolved(limit));
        return all;
    }
}
