package com.acme.payments.billing;

import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.billing.GrantStore.Grant;
import com.acme.payments.billing.PurchaseStore.Purchase;
import com.acme.payments.billing.SubscriptionStore.Subscription;
import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/** The billing read API (scope {@code read}) and "sync now" (scope {@code operator}). Period fields are epoch seconds. */
@RestController
@Allow(scopes = Scope.READ)
@RequestMapping("/api/billing")
class BillingController {

    /** What a Stripe object id can look like ({@code sub_1MowQV…}); anything else is unknown to Stripe anyway. */
    private static final Pattern STRIPE_ID = Pattern.compile("[A-Za-z0-9_-]{1,255}");

    private final SubscriptionStore subscriptions;
    private final GrantStore grants;
    private final UserStore users;
    private final PurchaseStore purchases;
    private final ReconciliationOrchestrator reconciliation;

    BillingController(SubscriptionStore subscriptions, GrantStore grants, UserStore users, PurchaseStore purchases,
            ReconciliationOrchestrator reconciliation) {
        this.subscriptions = subscriptions;
        this.grants = grants;
        this.users = users;
        this.purchases = purchases;
        this.reconciliation = reconciliation;
    }

    @GetMapping("/subscriptions/{subscriptionId}")
    @Operation(operationId = "getSubscription")
    Subscription subscription(@PathVariable String subscriptionId) {
        return find(subscriptionId);
    }

    @GetMapping("/subscriptions/{subscriptionId}/grants")
    @Operation(operationId = "listSubscriptionGrants")
    List<GrantView> grants(@PathVariable String subscriptionId) {
        find(subscriptionId);
        return grants.list(subscriptionId).stream().map(GrantView::of).toList();
    }

    @GetMapping("/users/{userId}")
    @Operation(operationId = "getBillingUser")
    UserView user(@PathVariable String userId) {
        UserStore.User user = users.find(userId).orElseThrow(() -> new Problems.NotFound("User " + userId));
        return new UserView(user.userId(), user.credits(), subscriptions.openOf(userId));
    }

    @GetMapping("/purchases/{paymentIntentId}")
    @Operation(operationId = "getPurchase")
    PurchaseView purchase(@PathVariable String paymentIntentId) {
        Purchase p = purchases.find(paymentIntentId)
                .orElseThrow(() -> new Problems.NotFound("Purchase " + paymentIntentId));
        return new PurchaseView(p.paymentIntentId(), p.userId(), p.productId(), p.amount(), p.currency(),
                p.refundedTotal());
    }

    @PostMapping("/subscriptions/{subscriptionId}/sync")
    @Allow(scopes = Scope.OPERATOR)
    @Audited(action = "sync", target = "subscription:{subscriptionId}")
    @Operation(operationId = "syncSubscription")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.SUBSCRIPTION_USER_UNKNOWN, ProblemType.STRIPE_API_UNAVAILABLE,
            ProblemType.NOT_CONFIGURED })
    SyncView sync(@PathVariable String subscriptionId) {
        if (!STRIPE_ID.matcher(subscriptionId).matches()) {
            // the id becomes a path segment of a Stripe API call made with our secret key: '..' would climb out
            throw new Problems.NotFound("Subscription");
        }
        reconciliation.requireConfigured(); // after the request's own answers, before anything is recorded
        OperatorNote.NONE.asked();
        return new SyncView(reconciliation.sync(subscriptionId));
    }

    private Subscription find(String subscriptionId) {
        return subscriptions.find(subscriptionId)
                .orElseThrow(() -> new Problems.NotFound("Subscription " + subscriptionId));
    }

    record GrantView(Long periodStart, Long periodEnd, String source, String eventId, Instant grantedAt) {
        static GrantView of(Grant g) {
            return new GrantView(g.periodStart(), g.periodEnd(), g.source(), g.eventId(), g.grantedAt());
        }
    }

    record UserView(String userId, long credits, List<Subscription> activeSubscriptions) {
    }

    /** What "sync now" granted: the renewal periods the ledger lacked, by period start. */
    record SyncView(
            @ArraySchema(arraySchema = @Schema(description = "Period starts (epoch seconds) granted by this sync"))
            List<Long> granted) {
    }

    record PurchaseView(String paymentIntentId, String userId, String productId, long amount, String currency,
            long refundedTotal) {
    }
}
