package com.acme.payments.order;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.security.Allow;
import com.acme.payments.common.security.Allow.Role;
import com.acme.payments.common.web.JsonBodies;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;

/** {@code /api/orders}: create and read orders. */
@RestController
class OrderController {

    private final OrderCreation creation;
    private final OrderLookup lookup;
    private final JsonBodies bodies;

    OrderController(OrderCreation creation, OrderLookup lookup, JsonBodies bodies) {
        this.creation = creation;
        this.lookup = lookup;
        this.bodies = bodies;
    }

    @PostMapping("/api/orders")
    @Allow(Role.SHOP)
    ResponseEntity<Map<String, Object>> create(
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(schema = @Schema(implementation = CreateOrderRequest.class)))
            @RequestBody(required = false) byte[] body) {
        OrderCreation.Created created = creation.create(bodies.read(body, CreateOrderRequest.class, false));
        OrderView view = OrderView.of(created.order());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("orderRef", view.orderRef());
        answer.put("status", view.status());
        answer.put("amount", view.amount());
        answer.put("currency", view.currency());
        if (created.isNew()) {
            answer.put("clientToken", created.clientToken());
        }
        return ResponseEntity.status(created.isNew() ? HttpStatus.CREATED : HttpStatus.OK).body(answer);
    }

    @GetMapping("/api/orders/{orderRef}")
    @Allow({ Role.SHOP, Role.ORDER_TOKEN })
    OrderView get(@PathVariable String orderRef) {
        return OrderView.of(lookup.require(orderRef));
    }
}
