package com.acme.payments.operator;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code GET /api/admin/payments/{pspPaymentId}}: what a PSP payment id an operator holds (from the PSP's
 * dashboard, a sink, an alert) is to us — the order it belongs to, its role and our state of it. Each feature
 * answers for its own records through {@link PaymentLookup}.
 */
@RestController
@Tag(name = "Operations")
class PaymentLookupController {

    /** Longer ids are never stored (a payload fault), so they are looked up nowhere. */
    private static final int MAX_ID = 255;

    private final List<PaymentLookup> lookups;

    PaymentLookupController(List<PaymentLookup> lookups) {
        this.lookups = lookups.stream().sorted(Comparator.comparingInt(PaymentLookup::rank)).toList();
    }

    @GetMapping("/api/admin/payments/{pspPaymentId}")
    @Allow(scopes = Scope.OPERATOR)
    @Operation(operationId = "getPayment",
            summary = "A PSP payment by its id: its order, its role (payment, refund, duplicate_charge, "
                    + "duplicate_refund) and our state of it")
    @ApiResponse(responseCode = "200", description = "The payment's order, role and state")
    @ProblemAnswers({ ProblemType.NOT_FOUND })
    PaymentView byId(@PathVariable String pspPaymentId) {
        if (pspPaymentId.length() <= MAX_ID) {
            for (PaymentLookup lookup : lookups) {
                Optional<PaymentLookup.PaymentRole> found = lookup.find(pspPaymentId);
                if (found.isPresent()) {
                    return PaymentView.of(found.get());
                }
            }
        }
        throw new Problems.NotFound("Payment");
    }

    /** A PSP payment as the contract shows it. */
    @Schema(name = "PaymentLookup", requiredProperties = { "pspPaymentId", "orderRef", "role", "state" })
    record PaymentView(String pspPaymentId, String orderRef,
            @Schema(allowableValues = { "payment", "refund", "duplicate_charge", "duplicate_refund" }) String role,
            @Schema(description = "The order's status, the refund's state, the duplicate charge's refund state or "
                    + "DETECTED") String state) {

        static PaymentView of(PaymentLookup.PaymentRole role) {
            return new PaymentView(role.pspPaymentId(), role.orderRef(), role.role(), role.state());
        }
    }
}
