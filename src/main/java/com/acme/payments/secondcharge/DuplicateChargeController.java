package com.acme.payments.secondcharge;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Optional;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Caller;
import com.acme.payments.common.web.PathLookup;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.refund.SecondChargeRefunds;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** Second charges: the list, and the full refund of one (admin key). */
@RestController
@Tag(name = "Operations")
class DuplicateChargeController {

    private final DuplicateChargeStore duplicates;
    private final DuplicateChargeOrchestrator orchestrator;

    DuplicateChargeController(DuplicateChargeStore duplicates, DuplicateChargeOrchestrator orchestrator) {
        this.duplicates = duplicates;
        this.orchestrator = orchestrator;
    }

    @GetMapping("/api/admin/duplicate-charges")
    @Allow(scopes = Scope.OPERATOR)
    @Operation(operationId = "listDuplicateCharges",
            summary = "Second charges: COMPLETED payments an order did not book")
    List<ChargeView> list() {
        return duplicates.all().stream().map(ChargeView::of).toList();
    }

    @PostMapping("/api/admin/duplicate-charges/{pspPaymentId}/refund")
    @Allow(scopes = Scope.OPERATOR)
    @Audited(action = "duplicate-refund", target = "payment:{pspPaymentId}")
    @Operation(operationId = "refundDuplicateCharge",
            summary = "Refund a second charge in full, exactly once however often it is called")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST,
            ProblemType.REFUND_OUTCOME_UNKNOWN })
    ResponseEntity<RefundView> refund(@PspPaymentIdParameter DuplicateCharge charge, Caller caller,
            @RequestBody(required = false) @Valid OperatorNote note) {
        OperatorNote asked = OperatorNote.of(note);
        asked.asked();
        String reason = asked.reason();
        SecondChargeRefunds.Answer answer = orchestrator.refund(charge, caller.actor(), reason);
        return ResponseEntity.status(answer.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .body(new RefundView(charge.pspPaymentId(), answer.referenceId(), answer.state(), answer.errorCode(),
                        answer.pspState(), answer.requestedBy()));
    }

    /** The second charge an operator's path names ({@code {pspPaymentId}}), found before the body is read, or 404. */
    @Component
    static class ByPayment extends PathLookup<DuplicateCharge> {

        private final DuplicateChargeStore duplicates;

        ByPayment(DuplicateChargeStore duplicates) {
            super(DuplicateCharge.class, "pspPaymentId", "Duplicate charge");
            this.duplicates = duplicates;
        }

        @Override
        protected Optional<DuplicateCharge> find(String pspPaymentId) {
            return pspPaymentId.length() > 255 ? Optional.empty() : duplicates.find(pspPaymentId);
        }
    }

    /** The {@code {pspPaymentId}} path variable a {@link ByPayment} charge comes from, for the OpenAPI description. */
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @Parameter(name = "pspPaymentId", in = ParameterIn.PATH, required = true, schema = @Schema(type = "string"))
    @interface PspPaymentIdParameter {
    }

    /** {@code refund} is absent until someone asked for it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ChargeView(String orderRef, String pspPaymentId, String amount, String currency, String detectedAt,
            RefundSummary refund) {

        static ChargeView of(DuplicateCharge charge) {
            RefundSummary refund = charge.refundReferenceId() == null ? null
                    : new RefundSummary(charge.refundReferenceId(), charge.refundState(), charge.refundPspState(),
                            charge.refundRequestedBy());
            return new ChargeView(charge.orderRef(), charge.pspPaymentId(), charge.amount().toPlainString(),
                    charge.currency(), charge.detectedAt().toString(), refund);
        }
    }

    /** The charge's live refund, else its latest; {@code pspState} is the PSP's state of the REFUND payment. */
    record RefundSummary(String referenceId, String state,
            @Schema(description = "The PSP's state of the REFUND payment; null until the PSP answered") String pspState,
            String requestedBy) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record RefundView(String pspPaymentId, String referenceId, String state, String errorCode,
            @Schema(description = "The PSP's state of the REFUND payment (extension)") String pspState,
            String requestedBy) {
    }
}
