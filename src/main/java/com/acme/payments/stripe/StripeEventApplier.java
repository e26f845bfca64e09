package com.acme.payments.stripe;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.stripe.ProcessedEventStore.Claim;
import com.acme.payments.stripe.StripeEventHandler.Applied;

/**
 * The one transaction per event: completion mark (checking the claim token, which also locks the
 * claim row against a concurrent takeover until commit), entitlement, ledger, mirror and outbox rows
 * commit together or not at all. SERIALIZABLE, so two events racing on one user or subscription
 * cannot both act on a stale read: PostgreSQL aborts one (40001) and {@link SerializationRetry} runs it
 * again inside the same claim.
 */
@Component
class StripeEventApplier {

    private final ProcessedEventStore events;
    private final StripeEventHandler handler;
    private final ObjectProvider<StripeProcessingHook> hooks;

    StripeEventApplier(ProcessedEventStore events, StripeEventHandler handler,
            ObjectProvider<StripeProcessingHook> hooks) {
        this.events = events;
        this.handler = handler;
        this.hooks = hooks;
    }

    @Transactional(isolation = Isolation.SERIALIZABLE)
    public Applied apply(StripeEvent event, Claim claim, int attempt) {
        if (!events.complete(claim)) {
            throw new ClaimLost(event.id());
        }
        hooks.orderedStream().forEach(h -> h.beforeBusinessWrites(event, attempt));
        Applied applied = handler.apply(event);
        hooks.orderedStream().forEach(h -> h.afterBusinessWrites(event, attempt));
        return applied;
    }

    /** Our claim was taken over (we were slow, not dead): the new owner applies the event, not us. */
    static final class ClaimLost extends RuntimeException {
        ClaimLost(String eventId) {
            super("claim on " + eventId + " was taken over by another worker");
        }
    }
}
