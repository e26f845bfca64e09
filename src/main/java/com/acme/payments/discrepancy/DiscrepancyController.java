package com.acme.payments.discrepancy;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/** {@code GET /api/admin/discrepancies}: the operator's one list of money only a person can settle. */
@RestController
@Tag(name = "Operations")
class DiscrepancyController {

    /** Per source; each row needs a person, so this is a work queue, not an export. */
    private static final int LIMIT = 1000;

    private final Discrepancies discrepancies;

    DiscrepancyController(Discrepancies discrepancies) {
        this.discrepancies = discrepancies;
    }

    @GetMapping("/api/admin/discrepancies")
    @Allow(scopes = Scope.OPERATOR)
    @Operation(operationId = "listDiscrepancies",
            summary = "Over-refunds, contradicting reports and unrefunded second charges, newest first",
            description = "pspPaymentId is the PSP payment the discrepancy is about: the REFUND payment for a "
                    + "refund's over_refund or contradicting_report, the deposit otherwise. amount is the "
                    + "excess for an over_refund, the payment's or refund's amount otherwise. A duplicate_charge "
                    + "stays listed until a refund of it is DONE.")
    List<DiscrepancyView> discrepancies() {
        return discrepancies.newestFirst(LIMIT).stream().map(DiscrepancyView::of).toList();
    }

    record DiscrepancyView(String kind, String orderRef, String pspPaymentId, String amount, String currency,
            String detectedAt, String detail) {

        static DiscrepancyView of(Discrepancy d) {
            return new DiscrepancyView(d.kind().value(), d.orderRef(), d.pspPaymentId(), d.amount().toPlainString(),
                    d.currency(), d.detectedAt().toString(), d.detail());
        }
    }
}
