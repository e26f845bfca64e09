package com.acme.payments.capture;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Caller;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.RequestRules;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderLookup;
import com.acme.payments.order.OrderRefParameter;
import com.acme.payments.order.OrderView;

import java.math.BigDecimal;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/**
 * Capture or void an AUTHORIZED order (admin key); both answer the order view. Optional body: a capture's
 * {@code {amount, currency, reason}}, a void's {@code {reason}}; optional {@code Idempotency-Key}: a repeat
 * with it answers what the first answered.
 */
@RestController
@Tag(name = "Capture and void")
class CaptureController {

    private final OrderLookup orders;
    private final CaptureOrchestrator orchestrator;

    CaptureController(OrderLookup orders, CaptureOrchestrator orchestrator) {
        this.orders = orders;
        this.orchestrator = orchestrator;
    }

    static final int KEY_MAX = 255;

    @PostMapping("/api/orders/{orderRef}/capture")
    @Allow(scopes = Scope.PAYMENTS)
    @Audited(action = "capture", target = "order:{orderRef}")
    @io.swagger.v3.oas.annotations.Operation(operationId = "captureOrder", summary = "Capture an AUTHORIZED order",
            description = "All of the authorized amount, or the body's amount (at most the authorized amount, in the order's currency).")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.ORDER_NOT_AUTHORIZED,
            ProblemType.CAPTURE_EXCEEDS_AUTHORIZED, ProblemType.IDEMPOTENCY_KEY_REUSED,
            ProblemType.PAYMENT_OUTCOME_UNKNOWN, ProblemType.PSP_REJECTED })
    OrderView capture(@OrderRefParameter Order order, Caller caller, @KeyHeader @RequestHeader(name = "Idempotency-Key",
            required = false) String key, @RequestBody(required = false) @Valid CaptureRequest body) {
        String checkedKey = checked(key);
        BigDecimal amount = CaptureRequest.amountOf(body, order);
        CaptureRequest.noteOf(body).asked();
        orchestrator.perform(order, Operation.Kind.CAPTURE, caller.actor(), amount, checkedKey);
        return OrderView.of(orders.require(order.orderRef()));
    }

    @PostMapping("/api/orders/{orderRef}/void")
    @Allow(scopes = Scope.PAYMENTS)
    @Audited(action = "void", target = "order:{orderRef}")
    @io.swagger.v3.oas.annotations.Operation(operationId = "voidOrder", summary = "Void an AUTHORIZED order")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.ORDER_NOT_AUTHORIZED,
            ProblemType.IDEMPOTENCY_KEY_REUSED, ProblemType.PAYMENT_OUTCOME_UNKNOWN, ProblemType.PSP_REJECTED })
    OrderView voidPayment(@OrderRefParameter Order order, Caller caller, @KeyHeader @RequestHeader(
            name = "Idempotency-Key", required = false) String key, @RequestBody(required = false) @Valid OperatorNote note) {
        String checkedKey = checked(key);
        OperatorNote.of(note).asked();
        orchestrator.perform(order, Operation.Kind.VOID, caller.actor(), null, checkedKey);
        return OrderView.of(orders.require(order.orderRef()));
    }

    /** No key is no replay; a key present must be 1-255 printable ASCII characters. */
    private static String checked(String key) {
        if (key != null && !RequestRules.isKey(key, KEY_MAX)) {
            throw Problems.ValidationFailed.of("Idempotency-Key", "must be 1-" + KEY_MAX + " printable ASCII characters");
        }
        return key;
    }

    /** Documents the optional header in the OpenAPI description. */
    @java.lang.annotation.Target(java.lang.annotation.ElementType.PARAMETER)
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, required = false,
            description = "Optional: a repeat with the same key answers what the first answered (200 and the same body); "
                    + "the same key for another amount or action is 422 idempotency-key-reused. 1-255 printable ASCII characters.",
            schema = @Schema(type = "string"))
    @interface KeyHeader {
    }
}
