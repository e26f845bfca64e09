package com.acme.payments.order;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.fasterxml.jackson.annotation.JsonInclude;

import jakarta.validation.Valid;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** {@code /api/orders}: create and read orders. */
@RestController
@Tag(name = "Orders")
class OrderController {

    private final OrderCreation creation;

    OrderController(OrderCreation creation) {
        this.creation = creation;
    }

    @PostMapping("/api/orders")
    @Allow(scopes = Scope.ORDERS)
    @Operation(operationId = "createOrder", summary = "Create an order (idempotent on orderRef)")
    @ApiResponse(responseCode = "201", description = "Created; `clientToken` appears only in this answer")
    @ApiResponse(responseCode = "200", description = "The same body again: the same order, without a token")
    @ProblemAnswers({ ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST, ProblemType.AMOUNT_NOT_SUPPORTED,
            ProblemType.ORDER_REF_CONFLICT })
    ResponseEntity<OrderCreated> create(
            @RequestBody @Valid CreateOrderRequest request) {
        OrderCreation.Created created = creation.create(request);
        return ResponseEntity.status(created.isNew() ? HttpStatus.CREATED : HttpStatus.OK)
                .body(OrderCreated.of(created));
    }

    @GetMapping("/api/orders/{orderRef}")
    @Allow(scopes = Scope.ORDERS, orderToken = true)
    @Operation(operationId = "getOrder", summary = "Read an order")
    @ProblemAnswers(ProblemType.NOT_FOUND)
    OrderView get(@OrderRefParameter Order order) {
        return OrderView.of(order);
    }

    /** The answer to a create: the order's first fields, and its client token only when it was created now. */
    @Schema(requiredProperties = { "orderRef", "status", "amount", "currency" })
    record OrderCreated(String orderRef, String status, String amount, String currency,
            @JsonInclude(JsonInclude.Include.NON_NULL)
            @Schema(description = "The order's client token, only in the 201 answer; stored hashed, never shown again")
            String clientToken) {

        static OrderCreated of(OrderCreation.Created created) {
            OrderView view = OrderView.of(created.order());
            return new OrderCreated(view.orderRef(), view.status(), view.amount(), view.currency(),
                    created.isNew() ? created.clientToken() : null);
        }
    }
}
