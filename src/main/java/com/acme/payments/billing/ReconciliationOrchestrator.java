package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeEvent.number;
import static com.acme.payments.stripe.StripeEvent.text;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.billing.GrantApplier.PeriodPayment;
import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;
import com.acme.payments.stripe.SerializationRetry;
import com.acme.payments.stripe.StripeApiClient;

import tools.jackson.databind.JsonNode;

/**
 * "Sync now" and the nightly repair: reads the subscription and its paid renewal invoices from the
 * Stripe API and grants each period through the webhook's grant path. Network calls happen outside
 * any transaction; each period is its own short transaction, retried on serialization conflicts.
 */
@Component
class ReconciliationOrchestrator {

    private static final Logger log = LoggerFactory.getLogger(ReconciliationOrchestrator.class);

    private final StripeApiClient stripe;
    private final ReconciliationApplier transaction;
    private final SubscriptionStore subscriptions;
    private final SerializationRetry retry;

    ReconciliationOrchestrator(StripeApiClient stripe, ReconciliationApplier transaction,
            SubscriptionStore subscriptions, SerializationRetry retry) {
        this.stripe = stripe;
        this.transaction = transaction;
        this.subscriptions = subscriptions;
        this.retry = retry;
    }

    /** 503 {@code not-configured} when the deployment has no Stripe API key: nothing can be read to sync. */
    void requireConfigured() {
        if (!stripe.configured()) {
            throw new Problems.NotConfigured(StripeApiClient.API_KEY_SETTING);
        }
    }

    /** Grants every paid renewal period the ledger lacks; returns the period starts granted now. */
    List<Long> sync(String subscriptionId) {
        JsonNode subscription = stripe.subscription(subscriptionId)
                .orElseThrow(() -> new Problems.NotFound("Subscription " + subscriptionId));
        String userId = Invoices.cleanId(text(subscription, "metadata", "userId"));
        if (userId == null) {
            userId = subscriptions.find(subscriptionId).map(SubscriptionStore.Subscription::userId).orElse(null);
        }
        if (userId == null) {
            throw new SubscriptionUserUnknown();
        }
        List<Long> granted = new ArrayList<>();
        for (JsonNode invoice : stripe.paidInvoices(subscriptionId)) {
            if (!Invoices.CYCLE.equals(text(invoice, "billing_reason"))
                    || !subscriptionId.equals(Invoices.subscriptionId(invoice))) {
                continue;
            }
            Invoices.Period period = Invoices.period(invoice);
            String invoiceId = text(invoice, "id");
            if (period == null || invoiceId == null) {
                log.error("paid renewal invoice without a line period, skipped, subscriptionId={} invoiceId={}",
                        subscriptionId, invoiceId);
                continue;
            }
            PeriodPayment payment = new PeriodPayment(userId, subscriptionId, period.start(), period.end(),
                    "reconciliation", null, invoiceId, invoiceId, Invoices.conversionEventId(invoice),
                    number(invoice, "amount_paid"), text(invoice, "currency"));
            if (retry.run("reconciliation of " + invoiceId, attempt -> transaction.grant(payment))) {
                granted.add(period.start());
            }
        }
        log.info("subscription reconciled, subscriptionId={} granted={}", subscriptionId, granted);
        return granted;
    }

    /** Neither Stripe's metadata nor our mirror says whose subscription this is. */
    static final class SubscriptionUserUnknown extends ApiProblem {
        SubscriptionUserUnknown() {
            super(ProblemType.SUBSCRIPTION_USER_UNKNOWN, "The subscription carries no metadata.userId and has no mirror; nothing can be granted.");
        }
    }
}
