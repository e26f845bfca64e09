package com.acme.payments.refund;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.security.Allow;
import com.acme.payments.common.security.Allow.Role;
import com.acme.payments.common.security.Caller;
import com.acme.payments.common.web.JsonBodies;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorAudit;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderLookup;
import com.acme.payments.order.OrderStore;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** Refunds of a PAID order, for operators (admin key). */
@RestController
class RefundController {

    private static final int MAX_KEY = 255;

    private final OrderLookup orders;
    private final OrderStore orderRows;
    private final RefundOrchestrator orchestrator;
    private final RefundStore refunds;
    private final JsonBodies bodies;

    RefundController(OrderLookup orders, OrderStore orderRows, RefundOrchestrator orchestrator, RefundStore refunds,
            JsonBodies bodies) {
        this.orders = orders;
        this.orderRows = orderRows;
        this.orchestrator = orchestrator;
        this.refunds = refunds;
        this.bodies = bodies;
    }

    @PostMapping("/api/orders/{orderRef}/refunds")
    @Allow(Role.ADMIN)
    @Audited(action = "refund", target = "order:{orderRef}/refund:{Idempotency-Key}")
    @Tag(name = "Refunds")
    @Operation(operationId = "createRefund", summary = "Refund part or all of a PAID order")
    @ApiResponse(responseCode = "201", description = "The first answer for this key")
    @ApiResponse(responseCode = "200", description = "A replay of the key: the same body")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST,
            ProblemType.REFUND_OUTCOME_UNKNOWN, ProblemType.REFUND_BLOCKED_BY_UNKNOWN, ProblemType.ORDER_NOT_REFUNDABLE,
            ProblemType.REFUND_EXCEEDS_REMAINDER, ProblemType.REFUND_KEY_REUSED })
    ResponseEntity<RefundResponse> refund(@PathVariable String orderRef, Caller caller,
            @Parameter(required = true, description = "The caller's refund key: one key is one refund forever; "
                    + "1-255 printable ASCII characters. Missing: 400 validation-failed.")
            @RequestHeader(name = "Idempotency-Key", required = false) String refundKey,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(schema = @Schema(implementation = RefundRequest.class)))
            @RequestBody(required = false) byte[] body) {
        Order order = orders.require(orderRef);
        if (refundKey == null || refundKey.isBlank() || refundKey.length() > MAX_KEY
                || refundKey.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
            throw Problems.ValidationFailed.of("Idempotency-Key",
                    "a refund key of 1-" + MAX_KEY + " printable ASCII characters is required");
        }
        RefundRequest request = bodies.read(body, RefundRequest.class, false);
        new OperatorNote(request.reason()).asked();
        RefundOrchestrator.Answer answer = orchestrator.refund(order, refundKey, request.amount(), request.currency(),
                caller.actor(), request.reason());
        return ResponseEntity.status(answer.created() ? HttpStatus.CREATED : HttpStatus.OK).body(RefundResponse.of(answer.refund()));
    }

    @GetMapping("/api/orders/{orderRef}/refunds")
    @Allow(Role.ADMIN)
    @Tag(name = "Refunds")
    @Operation(operationId = "listRefunds", summary = "The order's refund attempts")
    @ApiResponse(responseCode = "200", description = "Oldest first",
            content = @Content(array = @ArraySchema(schema = @Schema(implementation = RefundResponse.class))))
    @ProblemAnswers(ProblemType.NOT_FOUND)
    List<RefundResponse> list(@PathVariable String orderRef) {
        Order order = orders.require(orderRef);
        return refunds.forOrder(order.id()).stream().map(RefundResponse::of).toList();
    }

    @PostMapping("/api/admin/refunds/{referenceId}/abandon")
    @Allow(Role.ADMIN)
    @Audited(action = "abandon", target = "refund:{referenceId}")
    @Tag(name = "Operations")
    @Operation(operationId = "abandonRefund",
            summary = "Close an UNKNOWN refund the PSP confirmed never existed: its reservation is released")
    @ApiResponse(responseCode = "200", description = "The refund, now FAILED with errorCode abandoned")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST,
            ProblemType.REFUND_NOT_OPEN, ProblemType.REFUND_OUTCOME_UNKNOWN })
    RefundResponse abandon(@PathVariable String referenceId, Caller caller,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(schema = @Schema(implementation = OperatorNote.class)))
            @RequestBody(required = false) byte[] body) {
        if (referenceId.length() > 255 || refunds.findByReference(referenceId).isEmpty()) {
            throw new Problems.NotFound("Refund");
        }
        OperatorNote note = bodies.read(body, OperatorNote.class, true);
        note.asked();
        return RefundResponse.of(orchestrator.abandon(referenceId, caller.actor(), note.reason()));
    }

    @GetMapping("/api/admin/refunds/{referenceId}")
    @Allow(Role.ADMIN)
    @Tag(name = "Operations")
    @Operation(operationId = "getRefund",
            summary = "One refund by its reference: an order's refund or a second charge's, with its orderRef")
    @ApiResponse(responseCode = "200", description = "The refund view with the order it belongs to")
    @ProblemAnswers({ ProblemType.NOT_FOUND })
    RefundLookup byReference(@PathVariable String referenceId) {
        Refund refund = (referenceId.length() > MAX_KEY ? java.util.Optional.<Refund>empty()
                : refunds.findByReference(referenceId)).orElseThrow(() -> new Problems.NotFound("Refund"));
        String orderRef = orderRows.findById(refund.orderId()).orElseThrow().orderRef();
        return new RefundLookup(orderRef, RefundResponse.of(refund));
    }

    /** A refund found by its reference: the refund view and its order's reference. */
    @Schema(name = "RefundLookup", requiredProperties = { "orderRef", "referenceId", "state" })
    record RefundLookup(String orderRef, @JsonUnwrapped RefundResponse refund) {
    }

    /** A refund as the contract shows it; {@code abandonedBy} only once an operator closed it. */
    @Schema(name = "Refund", requiredProperties = { "refundKey", "referenceId", "state", "amount", "currency" })
    record RefundResponse(@Schema(description = "The Idempotency-Key") String refundKey, String referenceId,
            RefundState state, String amount,
            String currency, String pspPaymentId,
            @Schema(description = "The PSP's code when FAILED (extension)") String errorCode,
            @Schema(description = "The PSP's state of the REFUND payment") String pspState,
            @Schema(description = "The admin key's name that asked") String requestedBy,
            @JsonInclude(JsonInclude.Include.NON_NULL) String abandonedBy,
            @Schema(format = "date-time", description = "Extension") String createdAt) {

        static RefundResponse of(Refund refund) {
            return new RefundResponse(refund.refundKey(), refund.referenceId(), refund.state(),
                    refund.amount().toPlainString(), refund.currency(), refund.pspPaymentId(), refund.errorCode(),
                    refund.pspState(), refund.requestedBy(), refund.abandonedBy(), refund.createdAt().toString());
        }
    }
}
