package com.acme.payments.order;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** {@code GET /api/orders}: the orders, newest first, a page at a time (a shop or an admin key, never a token). */
@RestController
@Tag(name = "Orders")
class OrderListController {

    private final OrderListing listing;

    OrderListController(OrderListing listing) {
        this.listing = listing;
    }

    @GetMapping("/api/orders")
    @Allow(scopes = Scope.ORDERS)
    @Operation(operationId = "listOrders", summary = "List orders, newest first, a page at a time",
            description = "Newest first (by creation, then by id). The next page: `startingAfter` = the last "
                    + "`orderRef` of this page, with the same filters; `hasMore` tells whether another page follows. "
                    + "An invalid parameter, or a `startingAfter` that names no order, is a 400 `validation-failed` "
                    + "naming it. An order's client token may not list orders (403).")
    @ApiResponse(responseCode = "200", description = "A page: `data` (order views, as GET /api/orders/{orderRef}) "
            + "and `hasMore`")
    @ProblemAnswers(ProblemType.VALIDATION_FAILED)
    OrderListing.OrderPage list(
            @Parameter(description = "Only orders in this status", schema = @Schema(implementation = OrderStatus.class))
            @RequestParam(required = false) String status,
            @Parameter(description = "Created at or after this instant (RFC 3339, inclusive)",
                    schema = @Schema(type = "string", format = "date-time"))
            @RequestParam(required = false) String createdFrom,
            @Parameter(description = "Created before this instant (RFC 3339, exclusive)",
                    schema = @Schema(type = "string", format = "date-time"))
            @RequestParam(required = false) String createdTo,
            @Parameter(description = "Orders per page, 1 to 100",
                    schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "20"))
            @RequestParam(required = false) String limit,
            @Parameter(description = "The last `orderRef` of the previous page; an unknown one is a 400")
            @RequestParam(required = false) String startingAfter) {
        return listing.page(OrderListQuery.parse(status, createdFrom, createdTo, limit, startingAfter));
    }
}
