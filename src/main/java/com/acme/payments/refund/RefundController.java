package com.acme.payments.refund;

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
import com.acme.payments.common.web.ReferenceIdParameter;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderRefParameter;
import com.acme.payments.order.OrderStore;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** Refunds of a PAID order, for operators (admin key). */
@RestController
class RefundController {

    private final OrderStore orderRows;
    private final RefundOrchestrator orchestrator;
    private final RefundStore refunds;

    RefundController(OrderStore orderRows, RefundOrchestrator orchestrator, RefundStore refunds) {
        this.orderRows = orderRows;
        this.orchestrator = orchestrator;
        this.refunds = refunds;
    }

    @PostMapping("/api/orders/{orderRef}/refunds")
    @Allow(scopes = Scope.PAYMENTS)
    @Audited(action = "refund", target = "order:{orderRef}/refund:{Idempotency-Key}")
    @Tag(name = "Refunds")
    @Operation(operationId = "createRefund", summary = "Refund part or all of a PAID order")
    @ApiResponse(responseCode = "201", description = "The first answer for this key")
    @ApiResponse(responseCode = "200", description = "A replay of the key: the same body")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST,
            ProblemType.REFUND_OUTCOME_UNKNOWN, ProblemType.REFUND_BLOCKED_BY_UNKNOWN, ProblemType.ORDER_NOT_REFUNDABLE,
            ProblemType.REFUND_EXCEEDS_REMAINDER, ProblemType.REFUND_KEY_REUSED })
    ResponseEntity<RefundResponse> refund(@OrderRefParameter Order order, Caller caller,
            @RefundKey.Header RefundKey refundKey,
            @RequestBody @Valid RefundRequest request) {
        new OperatorNote(request.reason()).asked();
        RefundOrchestrator.Answer answer = orchestrator.refund(order, refundKey.value(), request.amount(), request.currency(),
                caller.actor(), request.reason());
        return ResponseEntity.status(answer.created() ? HttpStatus.CREATED : HttpStatus.OK).body(RefundResponse.of(answer.refund()));
    }

    @GetMapping("/api/orders/{orderRef}/refunds")
    @Allow(scopes = Scope.PAYMENTS)
    @Tag(name = "Refunds")
    @Operation(operationId = "listRefunds", summary = "The order's refund attempts")
    @ApiResponse(responseCode = "200", description = "Oldest first",
            content = @Content(array = @ArraySchema(schema = @Schema(implementation = RefundResponse.class))))
    @ProblemAnswers(ProblemType.NOT_FOUND)
    List<RefundResponse> list(@OrderRefParameter Order order) {
        return refunds.forOrder(order.id()).stream().map(RefundResponse::of).toList();
    }

    @PostMapping("/api/admin/refunds/{referenceId}/abandon")
    @Allow(scopes = Scope.OPERATOR)
    @Audited(action = "abandon", target = "refund:{referenceId}")
    @Tag(name = "Operations")
    @Operation(operationId = "abandonRefund",
            summary = "Close an UNKNOWN refund the PSP confirmed never existed: its reservation is released")
    @ApiResponse(responseCode = "200", description = "The refund, now FAILED with errorCode abandoned")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST,
            ProblemType.REFUND_NOT_OPEN, ProblemType.REFUND_OUTCOME_UNKNOWN })
    RefundResponse abandon(@ReferenceIdParameter Refund refund, Caller caller,
            @RequestBody(required = false) @Valid OperatorNote note) {
        String referenceId = refund.referenceId();
        OperatorNote asked = OperatorNote.of(note);
        asked.asked();
        return RefundResponse.of(orchestrator.abandon(referenceId, caller.actor(), asked.reason()));
    }

    @GetMapping("/api/admin/refunds/{referenceId}")
    @Allow(scopes = Scope.OPERATOR)
    @Tag(name = "Operations")
    @Operation(operationId = "getRefund",
            summary = "One refund by its reference: an order's refund or a second charge's, with its orderRef")
    @ApiResponse(responseCode = "200", description = "The refund view with the order it belongs to")
    @ProblemAnswers({ ProblemType.NOT_FOUND })
    RefundLookup byReference(@ReferenceIdParameter Refund refund) {
        String orderRef = orderRows.findById(refund.orderId()).orElseThrow().orderRef();
        return new RefundLookup(orderRef, RefundResponse.of(refund));
    }

    /** A refund an operator's path names ({@code {referenceId}}), found before the body is read, or 404. */
    @Component
    static class ByReference extends PathLookup<Refund> {

        private final RefundStore refunds;

        ByReference(RefundStore refunds) {
            super(Refund.class, "referenceId", "Refund");
            this.refunds = refunds;
        }

        @Override
        protected Optional<Refund> find(String referenceId) {
            return referenceId.length() > RefundKey.MAX ? Optional.empty() : refunds.findByReference(referenceId);
        }
    }

    /** A refund found by its reference: the refund view and its order's reference. */
    @Schema(name = "RefundLookup", requiredProperties = { "orderRef", "referenceId", "state" })
    record RefundLookup(String orderRef, @JsonUnwrapped RefundResponse refund) {
    }

    /**
     * A refund as the contract shows it; {@code abandonedBy} only once an operator closed it; {@code origin}
     * tells ours from one made at the PSP by someone else.
     */
    @Schema(name = "Refund", requiredProperties = { "refundKey", "referenceId", "state", "amount", "currency",
            "origin" })
    record RefundResponse(@Schema(description = "The Idempotency-Key") String refundKey, String referenceId,
            RefundState state, String amount,
            String currency, String pspPaymentId,
            @Schema(description = "The PSP's code when FAILED (extension)") String errorCode,
            @Schema(description = "The PSP's state of the REFUND payment") String pspState,
            @Schema(description = "The admin key's name that asked") String requestedBy,
            @JsonInclude(JsonInclude.Include.NON_NULL) String abandonedBy,
            @Schema(format = "date-time", description = "Extension") String createdAt,
            @Schema(allowableValues = { "api", "external" }, description = "api: made through this API; external: "
                    + "made at the PSP by someone else (Stripe's Dashboard, the Gateway's back office), booked from "
                    + "its report, with the PSP's refund id as referenceId and pspPaymentId and no refundKey or "
                    + "requestedBy") String origin) {

        static RefundResponse of(Refund refund) {
            return new RefundResponse(refund.refundKey(), refund.referenceId(), refund.state(),
                    refund.amount().toPlainString(), refund.currency(), refund.pspPaymentId(), refund.errorCode(),
                    refund.pspState(), refund.requestedBy(), refund.abandonedBy(), refund.createdAt().toString(),
                    refund.origin());
        }
    }
}
