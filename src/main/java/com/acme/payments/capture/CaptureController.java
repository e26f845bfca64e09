package com.acme.payments.capture;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.security.Allow;
import com.acme.payments.common.security.Allow.Role;
import com.acme.payments.common.security.Caller;
import com.acme.payments.common.web.JsonBodies;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorAudit;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderLookup;
import com.acme.payments.order.OrderView;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;

/** Capture or void an AUTHORIZED order (admin key); both answer the order view. Optional body {@code {reason}}. */
@RestController
@Tag(name = "Capture and void")
class CaptureController {

    private final OrderLookup orders;
    private final CaptureOrchestrator orchestrator;
    private final JsonBodies bodies;

    CaptureController(OrderLookup orders, CaptureOrchestrator orchestrator, JsonBodies bodies) {
        this.orders = orders;
        this.orchestrator = orchestrator;
        this.bodies = bodies;
    }

    @PostMapping("/api/orders/{orderRef}/capture")
    @Allow(Role.ADMIN)
    @Audited(action = "capture", target = "order:{orderRef}")
    @io.swagger.v3.oas.annotations.Operation(operationId = "captureOrder", summary = "Capture an AUTHORIZED order")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.ORDER_NOT_AUTHORIZED, ProblemType.PAYMENT_OUTCOME_UNKNOWN,
            ProblemType.PSP_REJECTED })
    OrderView capture(@PathVariable String orderRef, Caller caller,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(schema = @Schema(implementation = OperatorNote.class)))
            @RequestBody(required = false) byte[] body) {
        return perform(orderRef, caller, body, Operation.Kind.CAPTURE);
    }

    @PostMapping("/api/orders/{orderRef}/void")
    @Allow(Role.ADMIN)
    @Audited(action = "void", target = "order:{orderRef}")
    @io.swagger.v3.oas.annotations.Operation(operationId = "voidOrder", summary = "Void an AUTHORIZED order")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.ORDER_NOT_AUTHORIZED, ProblemType.PAYMENT_OUTCOME_UNKNOWN,
            ProblemType.PSP_REJECTED })
    OrderView voidPayment(@PathVariable String orderRef, Caller caller,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(schema = @Schema(implementation = OperatorNote.class)))
            @RequestBody(required = false) byte[] body) {
        return perform(orderRef, caller, body, Operation.Kind.VOID);
    }

    private OrderView perform(String orderRef, Caller caller, byte[] body, Operation.Kind kind) {
        Order order = orders.require(orderRef);
        OperatorNote note = bodies.read(body, OperatorNote.class, true);
        note.asked();
        orchestrator.perform(order, kind, caller.actor());
        return OrderView.of(orders.require(orderRef));
    }
}
