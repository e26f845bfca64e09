package com.acme.payments.console;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriComponentsBuilder;

import com.acme.payments.checkout.AttemptStore;
import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.Public;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderListing;
import com.acme.payments.order.OrderStore;
import com.acme.payments.order.OrderView;
import com.acme.payments.outbox.DeadEffects;
import com.acme.payments.refund.OrderRefunds;

import io.swagger.v3.oas.annotations.Hidden;

/**
 * Orders: found by reference, or listed newest first by status and creation date (the API's list, its
 * parameters validated as there); one order with its attempts, refunds and the effects it still has to send.
 */
@Controller
@Hidden
@Public("a page for people: ConsoleSecurity's chain and its session decide, not a bearer key")
class OrdersConsoleController {

    private static final int MAX_REF = 255;

    private final OrderListing listing;
    private final OrderStore orders;
    private final AttemptStore attempts;
    private final OrderRefunds refunds;
    private final DeadEffects effects;

    OrdersConsoleController(OrderListing listing, OrderStore orders, AttemptStore attempts, OrderRefunds refunds,
            DeadEffects effects) {
        this.listing = listing;
        this.orders = orders;
        this.attempts = attempts;
        this.refunds = refunds;
        this.effects = effects;
    }

    @GetMapping("/console/orders")
    String search(@RequestParam(required = false) String orderRef, @RequestParam(required = false) String status,
            @RequestParam(required = false) String createdFrom, @RequestParam(required = false) String createdTo,
            @RequestParam(required = false) String startingAfter, Model model) {
        if (orderRef != null && !orderRef.isBlank()) {
            return "redirect:" + UriComponentsBuilder.fromPath("/console/orders/{ref}").buildAndExpand(orderRef.strip())
                    .encode().toUriString();
        }
        OrderListing.OrderPage page = listing.find(blankToNull(status), blankToNull(createdFrom),
                blankToNull(createdTo), "50", blankToNull(startingAfter));
        model.addAttribute("page", page);
        model.addAttribute("status", status);
        model.addAttribute("createdFrom", createdFrom);
        model.addAttribute("createdTo", createdTo);
        return "console/orders";
    }

    @GetMapping("/console/orders/{orderRef}")
    String order(@PathVariable String orderRef, Model model) {
        Order order = (orderRef.length() > MAX_REF ? java.util.Optional.<Order>empty() : orders.findByRef(orderRef))
                .orElseThrow(() -> new Problems.NotFound("Order"));
        model.addAttribute("order", OrderView.of(order));
        model.addAttribute("createdAt", order.createdAt());
        model.addAttribute("attempts", attempts.forOrder(order.id()));
        model.addAttribute("refunds", refunds.of(order.id()));
        model.addAttribute("effects", effects.openForOrder(order.orderRef()));
        return "console/order";
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
