package com.acme.payments.stripe;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.stripe.ProcessedEventStore.Claim;
import com.acme.payments.stripe.StripeEventHandler.Applied;

/**
 * The one transaction per event: completion mark (checking the claim token, which also locks the
 * claim row against a concurrent takeover until commit), entitlement, ledger, mirror and outbox rows
 * commit together or not at all. READ COMMITTED, the pool's isolation for every connection
 * ({@code spring.datasource.hikari.transaction-isolation}; declared here it would cost a
 * {@code SHOW TRANSACTION ISOLATION LEVEL} round trip per event): events that touch the same rows serialise on row
 * locks the appliers take in one fixed order (docs/billing.md, "Isolation and lock order"), every
 * read-then-write reads under such a lock or writes conditionally, and the unique keys are the last
 * line. Unrelated events therefore never abort each other, as SERIALIZABLE's predicate locks on shared
 * index pages made them do. A deadlock (40P01) or serialization failure (40001) that still happens is
 * run again inside the same claim by {@link SerializationRetry}.
 */
@Component
class StripeEventApplier {

    private final ProcessedEventStore events;
    private final StripeEventRouter router;

    StripeEventApplier(ProcessedEventStore events, StripeEventRouter router) {
        this.events = events;
        this.router = router;
    }

    @Transactional
    public Applied apply(StripeEvent event, Claim claim) {
        if (!events.complete(claim)) {
            throw new ClaimLost(event.id());
        }
        return router.apply(event);
    }

    /**
     * Whether the handler that will apply this event wants the resolvers' look-ups (billing's reversal
     * links); the payments' own events never do, so a refund or dispute of our PaymentIntent asks Stripe
     * nothing. A short read-only transaction of its own, before the resolvers run outside any.
     */
    @Transactional(readOnly = true)
    public boolean wantsLinks(StripeEvent event) {
        return router.owner(event).map(StripeEventHandler::wantsLinks).orElse(false);
    }

    /** Our claim was taken over (we were slow, not dead): the new owner applies the event, not us. */
    static final class ClaimLost extends RuntimeException {
        ClaimLost(String eventId) {
            super("claim on " + eventId + " was taken over by another worker");
        }
    }
}
