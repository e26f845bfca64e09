package com.acme.payments.refund;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
import com.acme.payments.common.audit.OperatorActionStore;
import com.acme.payments.common.audit.OperatorNote;
import com.acme.payments.common.web.JsonBodies;
import com.acme.payments.common.web.Problems;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderLookup;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;

/** Refunds of a PAID order, for operators (admin key). */
@RestController
class RefundController {

    private static final int MAX_KEY = 255;

    private final OrderLookup orders;
    private final RefundOrchestrator orchestrator;
    private final RefundStore refunds;
    private final JsonBodies bodies;
    private final OperatorActionStore actions;

    RefundController(OrderLookup orders, RefundOrchestrator orchestrator, RefundStore refunds, JsonBodies bodies,
            OperatorActionStore actions) {
        this.actions = actions;
        this.orders = orders;
        this.orchestrator = orchestrator;
        this.refunds = refunds;
        this.bodies = bodies;
    }

    @PostMapping("/api/orders/{orderRef}/refunds")
    @Allow(Role.ADMIN)
    ResponseEntity<Map<String, Object>> refund(@PathVariable String orderRef, Caller caller,
            @RequestHeader(name = "Idempotency-Key", required = false) String refundKey,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(schema = @Schema(implementation = RefundRequest.class)))
            @RequestBody(required = false) byte[] body) {
        Order order = orders.require(orderRef);
        if (refundKey == null || refundKey.isBlank() || refundKey.length() > MAX_KEY
                || refundKey.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
            throw Problems.ValidationFailed.of("Idempotency-Key",
                    "a refund key of 1-" + MAX_KEY + " printable ASCII characters is required");
        }
        RefundRequest request = bodies.read(body, RefundRequest.class, false);
        actions.record(caller.actor(), "refund", "order:" + orderRef + "/refund:" + refundKey, request.reason());
        RefundOrchestrator.Answer answer = orchestrator.refund(order, refundKey, request.amount(), request.currency(),
                caller.actor(), request.reason());
        return ResponseEntity.status(answer.created() ? HttpStatus.CREATED : HttpStatus.OK).body(view(answer.refund()));
    }

    @GetMapping("/api/orders/{orderRef}/refunds")
    @Allow(Role.ADMIN)
    List<Map<String, Object>> list(@PathVariable String orderRef) {
        Order order = orders.require(orderRef);
        return refunds.forOrder(order.id()).stream().map(RefundController::view).toList();
    }

    @PostMapping("/api/admin/refunds/{referenceId}/abandon")
    @Allow(Role.ADMIN)
    Map<String, Object> abandon(@PathVariable String referenceId, Caller caller,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(schema = @Schema(implementation = OperatorNote.class)))
            @RequestBody(required = false) byte[] body) {
        if (referenceId.length() > 255 || refunds.findByReference(referenceId).isEmpty()) {
            throw new Problems.NotFound("Refund");
        }
        OperatorNote note = bodies.read(body, OperatorNote.class, true);
        actions.record(caller.actor(), "abandon", "refund:" + referenceId, note.reason());
        return view(orchestrator.abandon(referenceId, caller.actor(), note.reason()));
    }

    static Map<String, Object> view(Refund refund) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("refundKey", refund.refundKey());
        view.put("referenceId", refund.referenceId());
        view.put("state", refund.state().name());
        view.put("amount", refund.amount().toPlainString());
        view.put("currency", refund.currency());
        view.put("pspPaymentId", refund.pspPaymentId());
        view.put("errorCode", refund.errorCode());
        view.put("pspState", refund.pspState());
        view.put("requestedBy", refund.requestedBy());
        if (refund.abandonedBy() != null) {
            view.put("abandonedBy", refund.abandonedBy());
        }
        view.put("createdAt", refund.createdAt().toString());
        return view;
    }
}
