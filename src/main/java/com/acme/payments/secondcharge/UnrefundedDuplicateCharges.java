package com.acme.payments.secondcharge;

import java.util.List;

import org.springframework.stereotype.Component;

import com.acme.payments.discrepancy.Discrepancy;
import com.acme.payments.discrepancy.DiscrepancyKind;
import com.acme.payments.discrepancy.UnrefundedCharges;

/**
 * Second charges for the discrepancy list, computed from {@code duplicate_charge} (never copied): listed
 * while no refund of them is DONE — none asked, open, or FAILED (the charge may be refunded again).
 */
@Component
class UnrefundedDuplicateCharges implements UnrefundedCharges {

    private final DuplicateChargeStore duplicates;

    UnrefundedDuplicateCharges(DuplicateChargeStore duplicates) {
        this.duplicates = duplicates;
    }

    @Override
    public List<Discrepancy> unrefunded(int limit) {
        List<DuplicateCharge> open = duplicates.all().stream().filter(charge -> !"DONE".equals(charge.refundState()))
                .toList();
        return open.subList(Math.max(0, open.size() - limit), open.size()).stream() // the newest
                .map(UnrefundedDuplicateCharges::discrepancy).toList();
    }

    private static Discrepancy discrepancy(DuplicateCharge charge) {
        String refund = charge.refundState() == null ? "no refund asked"
                : "refund " + charge.refundReferenceId() + " " + charge.refundState();
        return new Discrepancy(DiscrepancyKind.DUPLICATE_CHARGE, charge.orderRef(), charge.pspPaymentId(),
                charge.amount(), charge.currency(), "second charge of the order, " + refund, charge.detectedAt());
    }
}
