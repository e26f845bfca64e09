package com.acme.payments.billing;

import java.util.Set;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.stripe.StripeEvent;
import com.acme.payments.stripe.StripeEventHandler;

/** Routes each handled Stripe event type to the billing code that applies it. */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class BillingEventApplier implements StripeEventHandler {

    private static final Set<String> TYPES = Set.of(
            "checkout.session.completed", "checkout.session.async_payment_succeeded",
            "checkout.session.async_payment_failed", "invoice.paid", "invoice.payment_failed",
            "customer.subscription.updated", "customer.subscription.deleted", "charge.refunded",
            "charge.dispute.created");

    private final CheckoutSessionApplier checkout;
    private final InvoiceApplier invoices;
    private final SubscriptionApplier subscriptions;
    private final ReversalApplier reversals;

    BillingEventApplier(CheckoutSessionApplier checkout, InvoiceApplier invoices, SubscriptionApplier subscriptions,
            ReversalApplier reversals) {
        this.checkout = checkout;
        this.invoices = invoices;
        this.subscriptions = subscriptions;
        this.reversals = reversals;
    }

    @Override
    @Transactional(propagation = Propagation.SUPPORTS)
    public Set<String> handledTypes() {
        return TYPES;
    }

    @Override
    public Applied apply(StripeEvent event) {
        switch (event.type()) {
            case "checkout.session.completed":
            case "checkout.session.async_payment_succeeded":
                return checkout.paidOrPending(event);
            case "checkout.session.async_payment_failed":
                return checkout.asyncPaymentFailed(event);
            case "invoice.paid":
                return invoices.paid(event);
            case "invoice.payment_failed":
                return invoices.paymentFailed(event);
            case "customer.subscription.updated":
                return subscriptions.updated(event);
            case "customer.subscription.deleted":
                return subscriptions.deleted(event);
            case "charge.refunded":
                return reversals.refunded(event);
            case "charge.dispute.created":
                return reversals.disputeCreated(event);
            default:
                return Applied.IGNORED;
        }
    }
}
