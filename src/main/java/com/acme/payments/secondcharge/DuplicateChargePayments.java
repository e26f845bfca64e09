package com.acme.payments.secondcharge;

import java.util.Optional;

import org.springframework.stereotype.Component;

import com.acme.payments.operator.PaymentLookup;

/**
 * A second charge's PSP payment for the operators' look-up: role {@code duplicate_charge}, state its
 * refund's (the live one, else the latest) or {@code DETECTED} while nobody asked to refund it. Asked first:
 * the same id is also an earlier attempt's payment.
 */
@Component
class DuplicateChargePayments implements PaymentLookup {

    private final DuplicateChargeStore charges;

    DuplicateChargePayments(DuplicateChargeStore charges) {
        this.charges = charges;
    }

    @Override
    public int rank() {
        return 1;
    }

    @Override
    public Optional<PaymentRole> find(String pspPaymentId) {
        return charges.find(pspPaymentId).map(c -> new PaymentRole(pspPaymentId, c.orderRef(), "duplicate_charge",
                c.refundState() == null ? "DETECTED" : c.refundState()));
    }
}
