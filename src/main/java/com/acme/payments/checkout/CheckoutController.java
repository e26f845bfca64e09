package com.acme.payments.checkout;

import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.security.Allow;
import com.acme.payments.common.security.Allow.Role;
import com.acme.payments.common.security.Caller;
import com.acme.payments.common.audit.OperatorActionStore;
import com.acme.payments.common.audit.OperatorNote;
import com.acme.payments.common.web.JsonBodies;
import com.acme.payments.common.web.Problems;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderLookup;
import com.acme.payments.order.OrderView;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;

/** Checkout, the customer's return, and the operator's way out of an attempt the PSP never saw. */
@RestController
class CheckoutController {

    private static final Logger log = LoggerFactory.getLogger(CheckoutController.class);

    private final OrderLookup orders;
    private final CheckoutOrchestrator orchestrator;
    private final ReturnUrls returnUrls;
    private final AttemptStore attempts;
    private final JsonBodies bodies;
    private final OperatorActionStore actions;

    CheckoutController(OrderLookup orders, CheckoutOrchestrator orchestrator, ReturnUrls returnUrls,
            AttemptStore attempts, JsonBodies bodies, OperatorActionStore actions) {
        this.actions = actions;
        this.orders = orders;
        this.orchestrator = orchestrator;
        this.returnUrls = returnUrls;
        this.attempts = attempts;
        this.bodies = bodies;
    }

    @PostMapping("/api/orders/{orderRef}/checkout")
    @Allow({ Role.SHOP, Role.ORDER_TOKEN })
    Map<String, Object> checkout(@PathVariable String orderRef,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(schema = @Schema(implementation = CheckoutRequest.class)))
            @RequestBody(required = false) byte[] body) {
        Order order = orders.require(orderRef);
        String returnUrl = returnUrls.choose(bodies.read(body, CheckoutRequest.class, true).returnUrl());
        Attempt attempt = orchestrator.checkout(order, returnUrl);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("redirectUrl", attempt.redirectUrl());
        answer.put("attempt", Map.of("referenceId", attempt.referenceId(), "state", attempt.state().name()));
        return answer;
    }

    @GetMapping("/api/orders/{orderRef}/return")
    @Allow({ Role.SHOP, Role.ORDER_TOKEN })
    OrderView customerReturned(@PathVariable String orderRef) {
        Order order = orders.require(orderRef);
        orchestrator.pollOnReturn(order);
        return OrderView.of(orders.require(orderRef));
    }

    @PostMapping("/api/admin/attempts/{referenceId}/abandon")
    @Allow(Role.ADMIN)
    Map<String, Object> abandon(@PathVariable String referenceId, Caller caller,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(schema = @Schema(implementation = OperatorNote.class)))
            @RequestBody(required = false) byte[] body) {
        if (attempts.findByReference(referenceId).isEmpty()) {
            throw new Problems.NotFound("Attempt");
        }
        OperatorNote note = bodies.read(body, OperatorNote.class, true);
        actions.record(caller.actor(), "abandon", "attempt:" + referenceId, note.reason());
        Attempt abandoned = orchestrator.abandon(referenceId, caller.actor(), note.reason());
        log.warn("attempt referenceId={} abandoned by {} reason={}", referenceId, caller.actor(), note.reason());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("referenceId", abandoned.referenceId());
        answer.put("state", abandoned.state().name());
        answer.put("failureReason", abandoned.failureReason());
        answer.put("abandonedBy", caller.actor());
        return answer;
    }
}
