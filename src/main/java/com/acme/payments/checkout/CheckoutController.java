package com.acme.payments.checkout;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Caller;
import com.acme.payments.common.web.PathLookup;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.ReferenceIdParameter;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderLookup;
import com.acme.payments.order.OrderRefParameter;
import com.acme.payments.order.OrderView;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** Checkout, the customer's return, and the operator's way out of an attempt the PSP never saw. */
@RestController
class CheckoutController {

    private static final Logger log = LoggerFactory.getLogger(CheckoutController.class);

    private final OrderLookup orders;
    private final CheckoutOrchestrator orchestrator;
    private final ReturnUrls returnUrls;

    CheckoutController(OrderLookup orders, CheckoutOrchestrator orchestrator, ReturnUrls returnUrls) {
        this.orders = orders;
        this.orchestrator = orchestrator;
        this.returnUrls = returnUrls;
    }

    @PostMapping("/api/orders/{orderRef}/checkout")
    @Allow(scopes = Scope.ORDERS, orderToken = true)
    @Tag(name = "Checkout")
    @io.swagger.v3.oas.annotations.Operation(operationId = "startCheckout",
            summary = "Start (or replay) the checkout: the PSP's hosted page to send the customer to")
    @ApiResponse(responseCode = "200", description = "The redirect; a repeat returns the stored redirectUrl")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST,
            ProblemType.PAYMENT_OUTCOME_UNKNOWN, ProblemType.CHECKOUT_IN_PROGRESS, ProblemType.ORDER_NOT_PAYABLE,
            ProblemType.CHECKOUT_DECLINED, ProblemType.PSP_REJECTED })
    CheckoutStarted checkout(@OrderRefParameter Order order,
            @RequestBody(required = false) CheckoutRequest request) {
        String returnUrl = returnUrls.choose(request == null ? null : request.returnUrl());
        Attempt attempt = orchestrator.checkout(order, returnUrl);
        return new CheckoutStarted(attempt.redirectUrl(),
                new AttemptSummary(attempt.referenceId(), attempt.state().name()));
    }

    @GetMapping("/api/orders/{orderRef}/return")
    @Allow(scopes = Scope.ORDERS, orderToken = true)
    @Tag(name = "Checkout")
    @io.swagger.v3.oas.annotations.Operation(operationId = "customerReturned",
            summary = "The customer is back: poll the PSP, apply the result, answer the order")
    @ProblemAnswers(ProblemType.NOT_FOUND)
    OrderView customerReturned(@OrderRefParameter Order order) {
        orchestrator.pollOnReturn(order);
        return OrderView.of(orders.require(order.orderRef()));
    }

    @PostMapping("/api/admin/attempts/{referenceId}/abandon")
    @Allow(scopes = Scope.OPERATOR)
    @Audited(action = "abandon", target = "attempt:{referenceId}")
    @Tag(name = "Operations")
    @io.swagger.v3.oas.annotations.Operation(operationId = "abandonAttempt",
            summary = "Close an UNKNOWN attempt the PSP confirmed never existed; "
            + "the PSP is asked once more first (recorded with who, why and when)")
    @ApiResponse(responseCode = "200", description = "The attempt, now FAILED with reason abandoned")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST,
            ProblemType.ATTEMPT_NOT_OPEN, ProblemType.PAYMENT_OUTCOME_UNKNOWN })
    AbandonedAttempt abandon(@ReferenceIdParameter Attempt attempt, Caller caller,
            @RequestBody(required = false) @Valid OperatorNote note) {
        String referenceId = attempt.referenceId();
        OperatorNote asked = OperatorNote.of(note);
        asked.asked();
        String reason = asked.reason();
        Attempt abandoned = orchestrator.abandon(referenceId, caller.actor(), reason);
        log.warn("attempt referenceId={} abandoned by {} reason={}", referenceId, caller.actor(), reason);
        return new AbandonedAttempt(abandoned.referenceId(), abandoned.state().name(), abandoned.failureReason(),
                caller.actor());
    }

    /** The attempt an operator's path names ({@code {referenceId}}), found before the body is read, or 404. */
    @Component
    static class ByReference extends PathLookup<Attempt> {

        private final AttemptStore attempts;

        ByReference(AttemptStore attempts) {
            super(Attempt.class, "referenceId", "Attempt");
            this.attempts = attempts;
        }

        @Override
        protected Optional<Attempt> find(String referenceId) {
            return attempts.findByReference(referenceId);
        }
    }

    @Schema(requiredProperties = { "redirectUrl", "attempt" })
    record CheckoutStarted(@Schema(format = "uri", description = "The PSP's hosted page") String redirectUrl,
            AttemptSummary attempt) {
    }

    @Schema(requiredProperties = { "referenceId", "state" })
    record AttemptSummary(String referenceId, @Schema(example = "READY") String state) {
    }

    record AbandonedAttempt(String referenceId, @Schema(example = "FAILED") String state,
            @Schema(example = "abandoned") String failureReason, String abandonedBy) {
    }
}
