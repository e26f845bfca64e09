package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeEvent.idOf;
import static com.acme.payments.stripe.StripeEvent.number;
import static com.acme.payments.stripe.StripeEvent.text;

import java.math.BigInteger;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.billing.InvoiceStore.Invoice;
import com.acme.payments.billing.PurchaseStore.Purchase;
import com.acme.payments.stripe.StripeEvent;
import com.acme.payments.stripe.StripeEventHandler.Applied;

import tools.jackson.databind.JsonNode;

/**
 * Refunds and disputes take entitlements back. Stripe's {@code amount_refunded} is cumulative: the
 * increment is the new total minus the stored one, swapped in by compare-and-swap, and nothing
 * happens when it is not positive — so a duplicated or late refund event claws back nothing twice.
 * A dispute counts as a refund for entitlements and is handed to a human through the outbox. The
 * clawback is the proportional share of the credits the payment bought, computed from the totals
 * (not accumulated per event), so rounding never drifts.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class ReversalApplier {

    private static final Logger log = LoggerFactory.getLogger(ReversalApplier.class);

    private final PurchaseStore purchases;
    private final InvoiceStore invoices;
    private final SubscriptionStore subscriptions;
    private final UserStore users;
    private final Effects effects;

    ReversalApplier(PurchaseStore purchases, InvoiceStore invoices, SubscriptionStore subscriptions,
            UserStore users, Effects effects) {
        this.purchases = purchases;
        this.invoices = invoices;
        this.subscriptions = subscriptions;
        this.users = users;
        this.effects = effects;
    }

    /** {@code charge.refunded}: resolve by payment_intent (purchase) or invoice (subscription). */
    Applied refunded(StripeEvent event) {
        JsonNode charge = event.object();
        Long total = number(charge, "amount_refunded");
        String paymentIntentId = idOf(charge, "payment_intent");
        if (total == null) {
            log.error("charge.refunded without amount_refunded, eventId={}", event.id());
            return Applied.IGNORED;
        }
        Optional<Purchase> purchase = paymentIntentId == null ? Optional.empty() : purchases.find(paymentIntentId);
        if (purchase.isPresent()) {
            Purchase p = purchase.get();
            return reversePurchase(event, p, total, p.disputedTotal());
        }
        Optional<Invoice> invoice = invoiceOf(idOf(charge, "invoice"), paymentIntentId);
        if (invoice.isPresent()) {
            Invoice i = invoice.get();
            return reverseInvoice(event, i, total, i.disputedTotal());
        }
        log.warn("refund for a charge we never granted, eventId={} chargeId={}", event.id(), text(charge, "id"));
        return Applied.IGNORED;
    }

    /** {@code charge.dispute.created}: once per dispute; treated as a refund, recorded for a human. */
    Applied disputeCreated(StripeEvent event) {
        JsonNode dispute = event.object();
        String disputeId = text(dispute, "id");
        String chargeId = idOf(dispute, "charge");
        Long amount = number(dispute, "amount");
        String currency = text(dispute, "currency");
        if (disputeId == null || chargeId == null || amount == null || currency == null) {
            log.error("dispute without id, charge, amount or currency, eventId={}", event.id());
            return Applied.IGNORED;
        }
        if (!invoices.recordDispute(disputeId, chargeId, amount, currency, text(dispute, "reason"))) {
            log.info("dispute already recorded, eventId={} disputeId={}", event.id(), disputeId);
            return Applied.IGNORED;
        }
        String paymentIntentId = idOf(dispute, "payment_intent");
        Optional<Purchase> purchase = paymentIntentId == null ? Optional.empty() : purchases.find(paymentIntentId);
        if (purchase.isPresent()) {
            Purchase p = purchase.get();
            reversePurchase(event, p, p.refundedTotal(), p.disputedTotal() + amount);
        } else {
            invoiceOf(idOf(dispute, "charge", "invoice"), paymentIntentId)
                    .ifPresent(i -> reverseInvoice(event, i, i.refundedTotal(), i.disputedTotal() + amount));
        }
        effects.disputeOpened(event.id(), disputeId, chargeId, amount, currency, text(dispute, "reason"));
        log.warn("dispute opened, recorded for review, eventId={} disputeId={} chargeId={}", event.id(), disputeId,
                chargeId);
        return Applied.APPLIED;
    }

    private Applied reversePurchase(StripeEvent event, Purchase p, long refunded, long disputed) {
        Reversal r = Reversal.of(p.amount(), p.refundedTotal(), p.disputedTotal(), p.creditsGranted(),
                p.creditsClawedBack(), refunded, disputed);
        if (r == null) {
            log.info("refund total not above the stored one, nothing to claw back, eventId={} paymentIntentId={}",
                    event.id(), p.paymentIntentId());
            return Applied.IGNORED;
        }
        if (!purchases.swapReversals(p, r.refunded(), r.disputed(), r.clawed())) {
            throw new IllegalStateException("purchase " + p.paymentIntentId() + " changed under its transaction");
        }
        users.addCredits(p.userId(), -(r.clawed() - p.creditsClawedBack()));
        log.info("purchase reversed, paymentIntentId={} refundedTotal={} disputedTotal={} creditsClawedBack={} "
                + "eventId={}", p.paymentIntentId(), r.refunded(), r.disputed(), r.clawed(), event.id());
        return Applied.APPLIED;
    }

    private Applied reverseInvoice(StripeEvent event, Invoice i, long refunded, long disputed) {
        Reversal r = Reversal.of(i.amountPaid(), i.refundedTotal(), i.disputedTotal(), i.creditsBasis(),
                i.creditsClawedBack(), refunded, disputed);
        if (r == null) {
            log.info("refund total not above the stored one, nothing to claw back, eventId={} invoiceId={}",
                    event.id(), i.invoiceId());
            return Applied.IGNORED;
        }
        if (!invoices.swapReversals(i, r.refunded(), r.disputed(), r.clawed())) {
            throw new IllegalStateException("invoice " + i.invoiceId() + " changed under its transaction");
        }
        subscriptions.find(i.subscriptionId()).ifPresent(
                s -> users.addCredits(s.userId(), -(r.clawed() - i.creditsClawedBack())));
        log.info("invoice reversed, invoiceId={} refundedTotal={} disputedTotal={} creditsClawedBack={} eventId={}",
                i.invoiceId(), r.refunded(), r.disputed(), r.clawed(), event.id());
        return Applied.APPLIED;
    }

    private Optional<Invoice> invoiceOf(String invoiceId, String paymentIntentId) {
        if (invoiceId != null) {
            Optional<Invoice> byId = invoices.find(invoiceId);
            if (byId.isPresent()) {
                return byId;
            }
        }
        return paymentIntentId == null ? Optional.empty() : invoices.findByPaymentIntent(paymentIntentId);
    }

    /** New cumulative totals and the clawback they imply; null when neither total grew. */
    record Reversal(long refunded, long disputed, long clawed) {

        static Reversal of(long amount, long storedRefunded, long storedDisputed, long credits, long storedClawed,
                long newRefunded, long newDisputed) {
            long refunded = Math.min(amount, Math.max(storedRefunded, newRefunded));
            long disputed = Math.min(amount, Math.max(storedDisputed, newDisputed));
            if (refunded - storedRefunded <= 0 && disputed - storedDisputed <= 0) {
                return null;
            }
            long reversed = Math.min(amount, refunded + disputed);
            long target = amount == 0 ? credits : BigInteger.valueOf(credits).multiply(BigInteger.valueOf(reversed))
                    .divide(BigInteger.valueOf(amount)).longValueExact();
            return new Reversal(refunded, disputed, Math.max(storedClawed, target));
        }
    }
}
