package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeEvent.number;
import static com.acme.payments.stripe.StripeEvent.text;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.billing.GrantApplier.PeriodPayment;
import com.acme.payments.stripe.StripeEvent;
import com.acme.payments.stripe.StripeEventHandler.Applied;

import tools.jackson.databind.JsonNode;

/**
 * {@code invoice.paid} grants only renewals ({@code billing_reason = subscription_cycle}): the first
 * invoice was granted by checkout, proration invoices never grant. {@code invoice.payment_failed}
 * marks the mirror past_due and tells the user; it never cancels.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class InvoiceApplier {

    private static final Logger log = LoggerFactory.getLogger(InvoiceApplier.class);
    private static final String CREATE = "subscription_create";

    private final GrantApplier entitlements;
    private final UserStore users;
    private final SubscriptionStore subscriptions;
    private final InvoiceStore invoices;
    private final GrantStore grants;
    private final PendingReversalStore pending;
    private final ReversalApplier reversals;
    private final Effects effects;
    private final BillingProperties properties;

    InvoiceApplier(GrantApplier entitlements, UserStore users, SubscriptionStore subscriptions,
            InvoiceStore invoices, GrantStore grants, PendingReversalStore pending, ReversalApplier reversals,
            Effects effects, BillingProperties properties) {
        this.entitlements = entitlements;
        this.users = users;
        this.subscriptions = subscriptions;
        this.invoices = invoices;
        this.grants = grants;
        this.pending = pending;
        this.reversals = reversals;
        this.effects = effects;
        this.properties = properties;
    }

    Applied paid(StripeEvent event) {
        JsonNode invoice = event.object();
        String invoiceId = text(invoice, "id");
        String subscriptionId = Invoices.subscriptionId(invoice);
        if (subscriptionId == null || invoiceId == null) {
            log.info("paid invoice without subscription, nothing to grant, eventId={}", event.id());
            return Applied.IGNORED;
        }
        String userId = userOf(invoice, subscriptionId);
        if (userId == null) {
            log.error("paid invoice for an unknown user (no metadata.userId), nothing granted, eventId={} "
                    + "subscriptionId={}", event.id(), subscriptionId);
            return Applied.IGNORED;
        }
        String reason = text(invoice, "billing_reason");
        Invoices.Period period = Invoices.period(invoice);
        Long amountPaid = number(invoice, "amount_paid");
        String currency = text(invoice, "currency");
        String paymentIntentId = Invoices.paymentIntentId(invoice);
        boolean recorded = amountPaid != null && currency != null;
        if (recorded) {
            pending.lockPaymentKeys(invoiceId, paymentIntentId); // first: a racing reversal waits, or is seen kept
        }
        users.ensure(userId);
        subscriptions.createIfAbsent(subscriptionId, userId, "active");
        if (recorded) {
            boolean grantsPeriod = Invoices.CYCLE.equals(reason) || CREATE.equals(reason);
            invoices.record(invoiceId, subscriptionId, paymentIntentId, amountPaid, currency,
                    grantsPeriod ? properties.creditsPerPeriod() : 0);
        }
        Applied applied = grant(event, invoice, invoiceId, subscriptionId, userId, reason, period);
        if (recorded) {
            reversals.applyPendingToInvoice(invoiceId, paymentIntentId);
        }
        return applied;
    }

    private Applied grant(StripeEvent event, JsonNode invoice, String invoiceId, String subscriptionId,
            String userId, String reason, Invoices.Period period) {
        if (!Invoices.CYCLE.equals(reason)) {
            if (CREATE.equals(reason) && period != null) {
                subscriptions.moveForward(subscriptionId, period.start(), period.end(), "active");
            }
            log.info("paid invoice does not grant, eventId={} invoiceId={} billingReason={}", event.id(), invoiceId,
                    reason);
            return Applied.IGNORED;
        }
        if (period == null) {
            log.error("renewal invoice without a non-proration line period, nothing granted, eventId={} "
                    + "invoiceId={}", event.id(), invoiceId);
            return Applied.IGNORED;
        }
        // the user and the mirror were ensured above, before the invoice row that refers to them
        entitlements.grantEnsuredPeriod(new PeriodPayment(userId, subscriptionId, period.start(), period.end(),
                "webhook", event.id(), invoiceId, event.id(), Invoices.conversionEventId(invoice),
                number(invoice, "amount_paid"), text(invoice, "currency")));
        return Applied.APPLIED;
    }

    Applied paymentFailed(StripeEvent event) {
        JsonNode invoice = event.object();
        String subscriptionId = Invoices.subscriptionId(invoice);
        if (subscriptionId == null) {
            log.info("failed invoice without subscription, eventId={}", event.id());
            return Applied.IGNORED;
        }
        String userId = userOf(invoice, subscriptionId);
        if (userId == null) {
            log.error("failed invoice for an unknown user (no metadata.userId), eventId={} subscriptionId={}",
                    event.id(), subscriptionId);
            return Applied.IGNORED;
        }
        Invoices.Period period = Invoices.period(invoice);
        Long periodStart = period == null ? null : period.start();
        users.ensure(userId);
        boolean created = subscriptions.createIfAbsent(subscriptionId, userId, "past_due");
        // the mirror's lock first: a grant of this period commits before we read, or waits for us
        subscriptions.lock(subscriptionId);
        boolean marked = created
                || (!alreadyPaid(invoice, subscriptionId, periodStart) && subscriptions.markPastDue(subscriptionId,
                        periodStart));
        if (!marked) {
            log.info("late payment failure for a paid or ended period, no notice, eventId={} subscriptionId={}",
                    event.id(), subscriptionId);
            return Applied.IGNORED;
        }
        String portal = properties.portalUrl() != null ? properties.portalUrl() : text(invoice, "hosted_invoice_url");
        effects.notice("payment_failed_notice", event.id(), userId, subscriptionId, periodStart, portal);
        log.info("subscription past_due, user notified, eventId={} subscriptionId={}", event.id(), subscriptionId);
        return Applied.APPLIED;
    }

    /**
     * A failure delivered after its period was paid: the period granted (renewal), the same invoice
     * recorded paid, or the first invoice when the paid checkout session granted the first period.
     */
    private boolean alreadyPaid(JsonNode invoice, String subscriptionId, Long periodStart) {
        String invoiceId = text(invoice, "id");
        return (periodStart != null && grants.periodGranted(subscriptionId, periodStart))
                || (invoiceId != null && invoices.find(invoiceId).isPresent())
                || (CREATE.equals(text(invoice, "billing_reason")) && grants.checkoutGranted(subscriptionId));
    }

    private String userOf(JsonNode invoice, String subscriptionId) {
        String fromMetadata = Invoices.userId(invoice);
        return fromMetadata != null ? fromMetadata
                : subscriptions.find(subscriptionId).map(SubscriptionStore.Subscription::userId).orElse(null);
    }
}
