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
import com.acme.payments.billing.PendingReversalStore.Pending;
import com.acme.payments.billing.PurchaseStore.Purchase;
import com.acme.payments.stripe.StripeEvent;
import com.acme.payments.stripe.StripeEventHandler.Applied;

import tools.jackson.databind.JsonNode;

/**
 * Refunds and disputes take entitlements back. Stripe's {@code amount_refunded} is cumulative: the
 * increment is the new total minus the stored one, swapped in by compare-and-swap under the payment
 * row's lock, and nothing happens when it is not positive — so a duplicated or late refund event claws
 * back nothing twice. A dispute counts as a refund for entitlements and is handed to a human through
 * the outbox. The clawback is the proportional share of the credits the payment bought, computed from
 * the totals (not accumulated per event), so rounding never drifts.
 * <p>
 * The payment is found by payment intent (a purchase, or an invoice that carried one) or by invoice id
 * (on the charge in older API versions, else resolved from {@code GET /v1/invoice_payments} before the
 * transaction). A reversal whose payment is not recorded yet is <em>kept</em> and applied by the
 * transaction that records the payment ({@link #applyPendingToPurchase}, {@link #applyPendingToInvoice});
 * both sides take the payment's key locks first, so neither can miss the other.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class ReversalApplier {

    private static final Logger log = LoggerFactory.getLogger(ReversalApplier.class);

    private final PurchaseStore purchases;
    private final InvoiceStore invoices;
    private final SubscriptionStore subscriptions;
    private final UserStore users;
    private final PendingReversalStore pending;
    private final Effects effects;

    ReversalApplier(PurchaseStore purchases, InvoiceStore invoices, SubscriptionStore subscriptions,
            UserStore users, PendingReversalStore pending, Effects effects) {
        this.purchases = purchases;
        this.invoices = invoices;
        this.subscriptions = subscriptions;
        this.users = users;
        this.pending = pending;
        this.effects = effects;
    }

    /** {@code charge.refunded}: applied to its purchase or invoice, or kept until that payment lands. */
    Applied refunded(StripeEvent event) {
        JsonNode charge = event.object();
        Long total = number(charge, "amount_refunded");
        String chargeId = text(charge, "id");
        String paymentIntentId = idOf(charge, "payment_intent");
        String invoiceId = firstOf(idOf(charge, "invoice"), event.link(ReversalLinkOrchestrator.INVOICE));
        if (total == null || chargeId == null || (paymentIntentId == null && invoiceId == null)) {
            log.error("charge.refunded without amount_refunded, id or a payment to resolve, eventId={}", event.id());
            return Applied.IGNORED;
        }
        pending.lockPaymentKeys(paymentIntentId, invoiceId);
        Optional<Purchase> purchase = paymentIntentId == null ? Optional.empty()
                : purchases.findForUpdate(paymentIntentId);
        if (purchase.isPresent()) {
            Purchase p = purchase.get();
            return reversePurchase(event.id(), p, total, p.disputedTotal());
        }
        Optional<Invoice> invoice = invoiceFor(invoiceId, paymentIntentId);
        if (invoice.isPresent()) {
            Invoice i = invoice.get();
            return reverseInvoice(event.id(), i, total, i.disputedTotal());
        }
        pending.keep(new Pending(event.id(), Pending.REFUND, paymentIntentId, invoiceId, chargeId, total, null));
        log.info("refund before its payment, kept until the payment is recorded, eventId={} chargeId={} "
                + "paymentIntentId={} invoiceId={}", event.id(), chargeId, paymentIntentId, invoiceId);
        return Applied.APPLIED;
    }

    /** {@code charge.dispute.created}: once per dispute; treated as a refund, recorded for a human. */
    Applied disputeCreated(StripeEvent event) {
        JsonNode dispute = event.object();
        String disputeId = text(dispute, "id");
        String chargeId = idOf(dispute, "charge");
        Long amount = number(dispute, "amount");
        String currency = text(dispute, "currency");
        String paymentIntentId = firstOf(idOf(dispute, "payment_intent"), idOf(dispute, "charge", "payment_intent"));
        String invoiceId = firstOf(idOf(dispute, "charge", "invoice"), event.link(ReversalLinkOrchestrator.INVOICE));
        if (disputeId == null || chargeId == null || amount == null || currency == null) {
            log.error("dispute without id, charge, amount or currency, eventId={}", event.id());
            return Applied.IGNORED;
        }
        pending.lockPaymentKeys(paymentIntentId, invoiceId);
        if (!invoices.recordDispute(disputeId, chargeId, amount, currency, text(dispute, "reason"))) {
            log.info("dispute already recorded, eventId={} disputeId={}", event.id(), disputeId);
            return Applied.IGNORED;
        }
        Optional<Purchase> purchase = paymentIntentId == null ? Optional.empty()
                : purchases.findForUpdate(paymentIntentId);
        Optional<Invoice> invoice = purchase.isPresent() ? Optional.empty() : invoiceFor(invoiceId, paymentIntentId);
        if (purchase.isPresent()) {
            Purchase p = purchase.get();
            reversePurchase(event.id(), p, p.refundedTotal(), p.disputedTotal() + amount);
        } else if (invoice.isPresent()) {
            Invoice i = invoice.get();
            reverseInvoice(event.id(), i, i.refundedTotal(), i.disputedTotal() + amount);
        } else if (paymentIntentId != null || invoiceId != null) {
            pending.keep(new Pending(event.id(), Pending.DISPUTE, paymentIntentId, invoiceId, chargeId, amount,
                    disputeId));
            log.info("dispute before its payment, kept until the payment is recorded, eventId={} disputeId={}",
                    event.id(), disputeId);
        }
        effects.disputeOpened(event.id(), disputeId, chargeId, amount, currency, text(dispute, "reason"));
        log.warn("dispute opened, recorded for review, eventId={} disputeId={} chargeId={}", event.id(), disputeId,
                chargeId);
        return Applied.APPLIED;
    }

    /** Inside the transaction that recorded the purchase (its keys locked): the reversals that came first. */
    void applyPendingToPurchase(String paymentIntentId) {
        for (Pending r : pending.lockPending(paymentIntentId, null)) {
            Purchase p = purchases.findForUpdate(paymentIntentId).orElseThrow(
                    () -> new IllegalStateException("purchase " + paymentIntentId + " vanished in its transaction"));
            boolean refund = Pending.REFUND.equals(r.kind());
            reversePurchase(r.eventId(), p, refund ? r.amount() : p.refundedTotal(),
                    refund ? p.disputedTotal() : p.disputedTotal() + r.amount());
            pending.markApplied(r.eventId(), "purchase:" + paymentIntentId);
        }
    }

    /** Inside the transaction that recorded the invoice (its keys locked): the reversals that came first. */
    void applyPendingToInvoice(String invoiceId, String paymentIntentId) {
        for (Pending r : pending.lockPending(paymentIntentId, invoiceId)) {
            Invoice i = invoices.findForUpdate(invoiceId).orElseThrow(
                    () -> new IllegalStateException("invoice " + invoiceId + " vanished in its transaction"));
            boolean refund = Pending.REFUND.equals(r.kind());
            reverseInvoice(r.eventId(), i, refund ? r.amount() : i.refundedTotal(),
                    refund ? i.disputedTotal() : i.disputedTotal() + r.amount());
            pending.markApplied(r.eventId(), "invoice:" + invoiceId);
        }
    }

    private Applied reversePurchase(String eventId, Purchase p, long refunded, long disputed) {
        Reversal r = Reversal.of(p.amount(), p.refundedTotal(), p.disputedTotal(), p.creditsGranted(),
                p.creditsClawedBack(), refunded, disputed);
        if (r == null) {
            log.info("refund total not above the stored one, nothing to claw back, eventId={} paymentIntentId={}",
                    eventId, p.paymentIntentId());
            return Applied.IGNORED;
        }
        if (!purchases.swapReversals(p, r.refunded(), r.disputed(), r.clawed())) {
            throw new IllegalStateException("purchase " + p.paymentIntentId() + " changed under its row lock");
        }
        users.addCredits(p.userId(), -(r.clawed() - p.creditsClawedBack()));
        log.info("purchase reversed, paymentIntentId={} refundedTotal={} disputedTotal={} creditsClawedBack={} "
                + "eventId={}", p.paymentIntentId(), r.refunded(), r.disputed(), r.clawed(), eventId);
        return Applied.APPLIED;
    }

    private Applied reverseInvoice(String eventId, Invoice i, long refunded, long disputed) {
        Reversal r = Reversal.of(i.amountPaid(), i.refundedTotal(), i.disputedTotal(), i.creditsBasis(),
                i.creditsClawedBack(), refunded, disputed);
        if (r == null) {
            log.info("refund total not above the stored one, nothing to claw back, eventId={} invoiceId={}",
                    eventId, i.invoiceId());
            return Applied.IGNORED;
        }
        if (!invoices.swapReversals(i, r.refunded(), r.disputed(), r.clawed())) {
            throw new IllegalStateException("invoice " + i.invoiceId() + " changed under its row lock");
        }
        subscriptions.find(i.subscriptionId()).ifPresent(
                s -> users.addCredits(s.userId(), -(r.clawed() - i.creditsClawedBack())));
        log.info("invoice reversed, invoiceId={} refundedTotal={} disputedTotal={} creditsClawedBack={} eventId={}",
                i.invoiceId(), r.refunded(), r.disputed(), r.clawed(), eventId);
        return Applied.APPLIED;
    }

    /** The invoice by id, else by the payment intent it recorded; its row locked. */
    private Optional<Invoice> invoiceFor(String invoiceId, String paymentIntentId) {
        if (invoiceId != null) {
            Optional<Invoice> byId = invoices.findForUpdate(invoiceId);
            if (byId.isPresent()) {
                return byId;
            }
        }
        if (paymentIntentId == null) {
            return Optional.empty();
        }
        return invoices.findByPaymentIntent(paymentIntentId).flatMap(i -> invoices.findForUpdate(i.invoiceId()));
    }

    private static String firstOf(String a, String b) {
        return a != null ? a : b;
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
