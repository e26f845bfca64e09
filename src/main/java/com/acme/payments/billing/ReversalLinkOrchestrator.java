package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeEvent.idOf;

import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.stripe.StripeApiClient;
import com.acme.payments.stripe.StripeEvent;
import com.acme.payments.stripe.StripeEventResolver;

import tools.jackson.databind.JsonNode;

/**
 * Finds the invoice a refunded or disputed charge paid, before the event's transaction. Since API
 * version {@code 2025-03-31.basil} a charge carries no {@code invoice} and an invoice no
 * {@code payment_intent}; the link is {@code GET /v1/invoice_payments} by the charge's payment intent.
 * Asked only when the payload lacks the invoice and no purchase or invoice of ours already knows the
 * payment intent, so one-off purchases and older payloads cost no API call. Without an API key the
 * reversal goes on unlinked (kept by payment intent); an unreachable API fails the event (500), and
 * Stripe's redelivery asks again.
 */
@Component
class ReversalLinkOrchestrator implements StripeEventResolver {

    static final String INVOICE = "invoice";
    private static final Logger log = LoggerFactory.getLogger(ReversalLinkOrchestrator.class);
    private static final Set<String> REVERSALS = Set.of("charge.refunded", "charge.dispute.created");

    private final StripeApiClient stripe;
    private final PurchaseStore purchases;
    private final InvoiceStore invoices;

    ReversalLinkOrchestrator(StripeApiClient stripe, PurchaseStore purchases, InvoiceStore invoices) {
        this.stripe = stripe;
        this.purchases = purchases;
        this.invoices = invoices;
    }

    /** Only a reversal may ask Stripe; every other event passes through untouched. */
    @Override
    public boolean callsOut(StripeEvent event) {
        return REVERSALS.contains(event.type());
    }

    @Override
    public StripeEvent resolve(StripeEvent event) {
        if (!REVERSALS.contains(event.type())) {
            return event;
        }
        JsonNode object = event.object();
        boolean dispute = "charge.dispute.created".equals(event.type());
        String invoiceId = dispute ? idOf(object, "charge", "invoice") : idOf(object, "invoice");
        String paymentIntentId = idOf(object, "payment_intent");
        if (invoiceId != null || paymentIntentId == null || knownLocally(paymentIntentId)) {
            return event;
        }
        if (!stripe.configured()) {
            log.warn("reversal not linked to an invoice, STRIPE_API_KEY not set, eventId={} paymentIntentId={}",
                    event.id(), paymentIntentId);
            return event;
        }
        Optional<String> invoice = stripe.invoiceOfPaymentIntent(paymentIntentId);
        log.info("reversal linked through invoice_payments, eventId={} paymentIntentId={} invoiceId={}", event.id(),
                paymentIntentId, invoice.orElse(null));
        return invoice.map(id -> event.withLink(INVOICE, id)).orElse(event);
    }

    private boolean knownLocally(String paymentIntentId) {
        return purchases.find(paymentIntentId).isPresent() || invoices.findByPaymentIntent(paymentIntentId).isPresent();
    }
}
