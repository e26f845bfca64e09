package com.acme.payments.capture;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Allow.Role;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Caller;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderLookup;
import com.acme.payments.order.OrderRefParameter;
import com.acme.payments.order.OrderView;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** Capture or void an AUTHORIZED order (admin key); both answer the order view. Optional body {@code {reason}}. */
@RestController
@Tag(name = "Capture and void")
class CaptureController {

    private final OrderLookup orders;
    private final CaptureOrchestrator orchestrator;

    CaptureController(OrderLookup orders, CaptureOrchestrator orchestrator) {
        this.orders = orders;
        this.orchestrator = orchestrator;
    }

    @PostMapping("/api/orders/{orderRef}/capture")
    @Allow(Role.ADMIN)
    @Audited(action = "capture", target = "order:{orderRef}")
    @io.swagger.v3.oas.annotations.Operation(operationId = "captureOrder", summary = "Capture an AUTHORIZED order")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.ORDER_NOT_AUTHORIZED, ProblemType.PAYMENT_OUTCOME_UNKNOWN,
            ProblemType.PSP_REJECTED })
    OrderView capture(@OrderRefParameter Order order, Caller caller,
            @RequestBody(required = false) @Valid OperatorNote note) {
        return perform(order, caller, note, Operation.Kind.CAPTURE);
    }

    @PostMapping("/api/orders/{orderRef}/void")
    @Allow(Role.ADMIN)
    @Audited(action = "void", target = "order:{orderRef}")
    @io.swagger.v3.oas.annotations.Operation(operationId = "voidOrder", summary = "Void an AUTHORIZED order")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.ORDER_NOT_AUTHORIZED, ProblemType.PAYMENT_OUTCOME_UNKNOWN,
            ProblemType.PSP_REJECTED })
    OrderView voidPayment(@OrderRefParameter Order order, Caller caller,
            @RequestBody(required = false) @Valid OperatorNote note) {
        return perform(order, caller, note, Operation.Kind.VOID);
    }

    private OrderView perform(Order order, Caller caller, OperatorNote note, Operation.Kind kind) {
        OperatorNote.of(note).asked();
        orchestrator.perform(order, kind, caller.actor());
        return OrderView.of(orders.require(order.orderRef()));
    }
}
