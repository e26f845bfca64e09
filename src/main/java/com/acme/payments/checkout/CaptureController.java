package com.acme.payments.checkout;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.security.Allow;
import com.acme.payments.common.security.Allow.Role;
import com.acme.payments.order.OrderLookup;
import com.acme.payments.order.OrderView;

/** Capture or void an AUTHORIZED order (admin key); both answer the order view. */
@RestController
class CaptureController {

    private final OrderLookup orders;
    private final CaptureOrchestrator orchestrator;

    CaptureController(OrderLookup orders, CaptureOrchestrator orchestrator) {
        this.orders = orders;
        this.orchestrator = orchestrator;
    }

    @PostMapping("/api/orders/{orderRef}/capture")
    @Allow(Role.ADMIN)
    OrderView capture(@PathVariable String orderRef) {
        orchestrator.perform(orders.require(orderRef), Operation.Kind.CAPTURE);
        return OrderView.of(orders.require(orderRef));
    }

    @PostMapping("/api/orders/{orderRef}/void")
    @Allow(Role.ADMIN)
    OrderView voidPayment(@PathVariable String orderRef) {
        orchestrator.perform(orders.require(orderRef), Operation.Kind.VOID);
        return OrderView.of(orders.require(orderRef));
    }
}
