package com.acme.payments.psp.stripe;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStore;
import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.OutboxStore;
import com.acme.payments.outbox.ShopEvents;
import com.acme.payments.psp.PaymentPayloadFault;
import com.acme.payments.psp.PaymentPayloadRules;
import com.acme.payments.psp.PaymentUpdateApplier;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.WebhookOutcome;
import com.acme.payments.stripe.StripeEvent;
import com.acme.payments.stripe.StripeEventHandler;

import tools.jackson.databind.JsonNode;

/**
 * Stripe as the PSP, its webhook half: the events of our own payments, asked before billing (one endpoint,
 * one signature check, one claim: {@code StripeEventRouter}). An event is ours when its object names one
 * of our attempts ({@code metadata[attempt]}, or a session's {@code client_reference_id}) or one of our
 * refunds, or when it is a refund, charge or dispute of one of our PaymentIntents; every other event is
 * billing's. Ours is mapped by {@link StripeObjects} into a {@link PspPayment} and applied through the
 * Gateway webhook's own path ({@link PaymentUpdateApplier}: inbox receipt, conditional transitions,
 * second charges, replay of what matches nothing yet), so each truth lands once whatever the order or
 * repetition of its events. Runs inside the event's transaction, which also completes its claim.
 */
@Component
@org.springframework.core.annotation.Order(Ordered.HIGHEST_PRECEDENCE)
@ConditionalOnProperty(prefix = "payments.psp", name = "provider", havingValue = "stripe")
@Transactional(propagation = Propagation.MANDATORY)
class StripePaymentEventApplier implements StripeEventHandler {

    private static final Logger log = LoggerFactory.getLogger(StripePaymentEventApplier.class);

    static final String SESSION_COMPLETED = "checkout.session.completed";
    static final String SESSION_ASYNC_SUCCEEDED = "checkout.session.async_payment_succeeded";
    static final String SESSION_ASYNC_FAILED = "checkout.session.async_payment_failed";
    static final String SESSION_EXPIRED = "checkout.session.expired";
    static final String PI_SUCCEEDED = "payment_intent.succeeded";
    static final String PI_CAPTURABLE = "payment_intent.amount_capturable_updated";
    static final String PI_CANCELED = "payment_intent.canceled";
    static final String PI_FAILED = "payment_intent.payment_failed";
    static final String REFUND_CREATED = "refund.created";
    static final String REFUND_UPDATED = "refund.updated";
    static final String REFUND_FAILED = "refund.failed";
    static final String CHARGE_REFUNDED = "charge.refunded";
    static final String DISPUTE_CREATED = "charge.dispute.created";

    private static final Set<String> SESSIONS = Set.of(SESSION_COMPLETED, SESSION_ASYNC_SUCCEEDED,
            SESSION_ASYNC_FAILED, SESSION_EXPIRED);
    private static final Set<String> INTENTS = Set.of(PI_SUCCEEDED, PI_CAPTURABLE, PI_CANCELED, PI_FAILED);
    private static final Set<String> REFUNDS = Set.of(REFUND_CREATED, REFUND_UPDATED, REFUND_FAILED);
    /** The endpoint's payment subscriptions (docs/providers.md); billing keeps its own. */
    private static final Set<String> TYPES = union(SESSIONS, INTENTS, REFUNDS, Set.of(CHARGE_REFUNDED, DISPUTE_CREATED));

    private final PaymentUpdateApplier updates;
    private final OrderStore orders;
    private final OutboxStore outbox;
    private final ShopEvents events;

    StripePaymentEventApplier(PaymentUpdateApplier updates, OrderStore orders, OutboxStore outbox, ShopEvents events) {
        this.events = events;
        this.updates = updates;
        this.orders = orders;
        this.outbox = outbox;
    }

    @Override
    @Transactional(propagation = Propagation.SUPPORTS)
    public Set<String> handledTypes() {
        return TYPES;
    }

    /** Our events carry what they need: billing's reversal look-up is never asked about them. */
    @Override
    @Transactional(propagation = Propagation.SUPPORTS)
    public boolean wantsLinks() {
        return false;
    }

    /** The one ownership rule; a read inside the event's transaction. */
    @Override
    public boolean owns(StripeEvent event) {
        String type = event.type();
        if (SESSIONS.contains(type)) {
            return ourAttempt(event.text("metadata", "attempt")) || ourAttempt(event.text("client_reference_id"));
        }
        if (INTENTS.contains(type)) {
            return ourAttempt(event.text("metadata", "attempt")) || ourPaymentIntent(event.text("id"));
        }
        if (REFUNDS.contains(type)) {
            return updates.knows(event.text("id"), event.text("metadata", "referenceId"))
                    || ourPaymentIntent(StripeEvent.idOf(event.object(), "payment_intent"));
        }
        if (CHARGE_REFUNDED.equals(type)) {
            return ourPaymentIntent(StripeEvent.idOf(event.object(), "payment_intent"));
        }
        return DISPUTE_CREATED.equals(type) && disputedOrder(event).isPresent();
    }

    @Override
    public Applied apply(StripeEvent event) {
        String type = event.type();
        if (PI_FAILED.equals(type) || CHARGE_REFUNDED.equals(type)) {
            // the customer may retry on the same session; a refund's truth is its refund.* events
            log.debug("stripe payment event acknowledged, eventId={} type={}", event.id(), type);
            return Applied.IGNORED;
        }
        if (DISPUTE_CREATED.equals(type)) {
            return disputeOpened(event);
        }
        PspPayment payment;
        try {
            payment = payment(event);
        } catch (IllegalArgumentException unreadable) {
            // signed by Stripe, so a redelivery brings the same bytes: answered, logged for a person
            log.error("stripe payment event unreadable, eventId={} type={}: {}", event.id(), type,
                    unreadable.getMessage());
            return Applied.IGNORED;
        }
        Optional<PaymentPayloadFault> fault = PaymentPayloadRules.faultIn(payment);
        WebhookOutcome outcome = fault.isPresent() ? updates.keepFaultedJoined(payment, fault.get())
                : updates.receiveJoined(payment);
        log.info("stripe payment event eventId={} type={} paymentId={} state={} outcome={}", event.id(), type,
                PaymentPayloadRules.forLog(payment.id()), payment.state(), outcome.value());
        return outcome == WebhookOutcome.APPLIED || outcome == WebhookOutcome.DUPLICATE_CHARGE ? Applied.APPLIED
                : Applied.IGNORED;
    }

    /** The event's object in our words: the one mapping, {@link StripeObjects}; a value we cannot book is kept. */
    private static PspPayment payment(StripeEvent event) {
        return SESSION_ASYNC_FAILED.equals(event.type()) ? StripeObjects.asyncPaymentFailed(event.object())
                : StripeObjects.read(event.object());
    }

    /**
     * {@code dispute_opened} for a human, with billing's body and key ({@code <evt_…>:dispute_opened}) plus
     * {@code orderRef}. The event's claim makes it once; the outbox key is the last line.
     */
    private Applied disputeOpened(StripeEvent event) {
        Order order = disputedOrder(event).orElseThrow();
        JsonNode dispute = event.object();
        String chargeId = StripeEvent.idOf(dispute, "charge");
        Long amount = StripeEvent.number(dispute, "amount");
        String currency = StripeEvent.text(dispute, "currency");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", "dispute_opened");
        body.put("chargeId", chargeId);
        body.put("amount", amount == null || currency == null ? null
                : StripeMoney.toMajor(amount, currency).toPlainString());
        body.put("currency", currency == null ? null : currency.toUpperCase(Locale.ROOT));
        body.put("disputeId", StripeEvent.text(dispute, "id"));
        String reason = StripeEvent.text(dispute, "reason");
        if (reason != null) {
            body.put("reason", reason);
        }
        body.put("orderRef", order.orderRef());
        outbox.enqueue(new OutboxEntry("dispute_opened", "charge", chargeId, event.id(), body));
        events.publish(ShopEvents.DISPUTE_OPENED, order.orderRef(), disputeEvent(order, event, body));
        log.warn("stripe dispute opened orderRef={} disputeId={} chargeId={} reason={}", order.orderRef(),
                body.get("disputeId"), chargeId, reason);
        return Applied.APPLIED;
    }

    /** {@code dispute.opened}: the order, the disputed PaymentIntent and the disputed amount. */
    private static Map<String, Object> disputeEvent(Order order, StripeEvent event, Map<String, Object> notice) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("orderRef", order.orderRef());
        data.put("pspPaymentId", disputedPaymentIntent(event));
        data.put("amount", notice.get("amount"));
        data.put("currency", notice.get("currency"));
        return data;
    }

    private static String disputedPaymentIntent(StripeEvent event) {
        return firstOf(StripeEvent.idOf(event.object(), "payment_intent"),
                StripeEvent.idOf(event.object(), "charge", "payment_intent"));
    }

    private Optional<Order> disputedOrder(StripeEvent event) {
        return orderOf(disputedPaymentIntent(event)).flatMap(orders::findById);
    }

    private boolean ourAttempt(String referenceId) {
        return referenceId != null && updates.knows(null, referenceId);
    }

    private boolean ourPaymentIntent(String paymentIntentId) {
        return orderOf(paymentIntentId).isPresent();
    }

    /**
     * The order of one of our PaymentIntents: the one it booked (the order's pspPaymentId moves from the
     * session to the PaymentIntent once known), an attempt's, or a second charge's.
     */
    private Optional<Long> orderOf(String paymentIntentId) {
        if (paymentIntentId == null) {
            return Optional.empty();
        }
        Optional<Long> booked = orders.findByPaymentId(paymentIntentId).map(Order::id);
        return booked.isPresent() ? booked : updates.orderOf(paymentIntentId);
    }

    private static String firstOf(String first, String second) {
        return first != null ? first : second;
    }

    @SafeVarargs
    private static Set<String> union(Set<String>... sets) {
        java.util.Set<String> all = new java.util.HashSet<>();
        for (Set<String> set : sets) {
            all.addAll(set);
        }
        return Set.copyOf(all);
    }
}
