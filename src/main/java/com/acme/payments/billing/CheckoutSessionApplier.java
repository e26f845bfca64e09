package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeEvent.idOf;
import static com.acme.payments.stripe.StripeEvent.number;
import static com.acme.payments.stripe.StripeEvent.text;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.stripe.StripeEvent;
import com.acme.payments.stripe.StripeEventHandler.Applied;

import tools.jackson.databind.JsonNode;

/**
 * Checkout sessions. A paid {@code subscription} session is the subscription's first grant (unique per
 * subscription); a paid {@code payment} session is a purchase (unique per PaymentIntent). An unpaid
 * session (delayed payment method) grants nothing: its {@code async_payment_succeeded} does.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class CheckoutSessionApplier {

    private static final Logger log = LoggerFactory.getLogger(CheckoutSessionApplier.class);

    private final GrantApplier entitlements;
    private final UserStore users;
    private final PurchaseStore purchases;
    private final PendingReversalStore pending;
    private final ReversalApplier reversals;
    private final Effects effects;
    private final BillingProperties properties;

    CheckoutSessionApplier(GrantApplier entitlements, UserStore users, PurchaseStore purchases,
            PendingReversalStore pending, ReversalApplier reversals, Effects effects, BillingProperties properties) {
        this.entitlements = entitlements;
        this.users = users;
        this.purchases = purchases;
        this.pending = pending;
        this.reversals = reversals;
        this.effects = effects;
        this.properties = properties;
    }

    /** {@code checkout.session.completed} and {@code checkout.session.async_payment_succeeded}. */
    Applied paidOrPending(StripeEvent event) {
        JsonNode session = event.object();
        String sessionId = text(session, "id");
        String userId = Invoices.cleanId(text(session, "metadata", "userId"));
        if (userId == null) {
            log.error("checkout session without metadata.userId, nothing granted, eventId={} sessionId={}",
                    event.id(), sessionId);
            return Applied.IGNORED;
        }
        String paymentStatus = text(session, "payment_status");
        if (!"paid".equals(paymentStatus)) {
            log.info("checkout session not paid yet, nothing granted, eventId={} sessionId={} paymentStatus={}",
                    event.id(), sessionId, paymentStatus);
            return Applied.IGNORED;
        }
        String mode = text(session, "mode");
        String conversionId = text(session, "metadata", "conversionEventId");
        Long amount = number(session, "amount_total");
        String currency = text(session, "currency");
        if ("subscription".equals(mode)) {
            String subscriptionId = idOf(session, "subscription");
            if (subscriptionId == null) {
                log.error("paid subscription session without subscription, eventId={} sessionId={}", event.id(),
                        sessionId);
                return Applied.IGNORED;
            }
            entitlements.grantCheckout(event.id(), userId, subscriptionId, conversionId, amount, currency);
            return Applied.APPLIED;
        }
        if ("payment".equals(mode)) {
            return purchase(event, session, userId, conversionId, amount, currency);
        }
        log.info("checkout session mode not billed, eventId={} sessionId={} mode={}", event.id(), sessionId, mode);
        return Applied.IGNORED;
    }

    private Applied purchase(StripeEvent event, JsonNode session, String userId, String conversionId, Long amount,
            String currency) {
        String paymentIntentId = idOf(session, "payment_intent");
        if (paymentIntentId == null || amount == null || currency == null) {
            log.error("paid payment session without payment_intent, amount or currency, eventId={}", event.id());
            return Applied.IGNORED;
        }
        String productId = text(session, "metadata", "productId");
        long credits = properties.creditsFor(productId);
        pending.lockPaymentKeys(paymentIntentId); // first: a refund racing this purchase waits, or is seen kept
        users.ensure(userId);
        if (!purchases.record(paymentIntentId, userId, productId, text(session, "id"), amount, currency, credits)) {
            log.info("purchase already recorded, paymentIntentId={} eventId={}", paymentIntentId, event.id());
            return Applied.APPLIED;
        }
        users.addCredits(userId, credits);
        reversals.applyPendingToPurchase(paymentIntentId);
        entitlements.conversion(event.id(), conversionId, amount, currency, "webhook", "purchase", paymentIntentId);
        log.info("purchase recorded, paymentIntentId={} userId={} productId={} credits={} eventId={}",
                paymentIntentId, userId, productId, credits, event.id());
        return Applied.APPLIED;
    }

    /** {@code checkout.session.async_payment_failed}: nothing granted; the user is told. */
    Applied asyncPaymentFailed(StripeEvent event) {
        JsonNode session = event.object();
        String userId = Invoices.cleanId(text(session, "metadata", "userId"));
        if (userId == null) {
            log.error("failed async payment without metadata.userId, eventId={}", event.id());
            return Applied.IGNORED;
        }
        effects.notice("async_payment_failed_notice", event.id(), userId, idOf(session, "subscription"), null,
                null);
        log.info("async payment failed, user notified, eventId={} userId={}", event.id(), userId);
        return Applied.APPLIED;
    }
}
