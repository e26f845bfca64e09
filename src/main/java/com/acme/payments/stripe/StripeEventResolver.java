package com.acme.payments.stripe;

/**
 * Reads, outside any transaction and before the event's transaction, what the payload no longer
 * carries (the current API dropped {@code charge.invoice}): implemented by billing, called by the
 * webhook orchestrator after the claim. A failure releases the claim and answers 500, so Stripe's
 * redelivery tries again; it never runs inside the business transaction (no network call holds locks).
 */
public interface StripeEventResolver {

    /**
     * Whether {@link #resolve} may call out (the network) for this event; the orchestrator then gives back
     * the event's database permit for the call. True unless the resolver knows better.
     */
    default boolean callsOut(StripeEvent event) {
        return true;
    }

    /** The event, with {@link StripeEvent#withLink} for anything looked up; the event itself when nothing is. */
    StripeEvent resolve(StripeEvent event);
}
