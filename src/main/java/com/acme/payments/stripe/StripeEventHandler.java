package com.acme.payments.stripe;

import java.util.Set;

/**
 * What applies a Stripe event to the business: implemented by billing (and, with Stripe as the PSP, by the
 * payments), called by this package inside the one transaction that also marks the event completed (so
 * they depend on Stripe, never back). Several handlers may take one type: {@link StripeEventRouter} asks
 * them in {@code @Order} and the first that {@link #owns} the event applies it.
 */
public interface StripeEventHandler {

    /** The event types this handler applies; every other type is answered 200 without a claim. */
    Set<String> handledTypes();

    /**
     * Whether this event of one of its types is this handler's; runs inside the event's transaction and may
     * read. A handler that takes every event of its types (billing, asked last) keeps the default.
     */
    default boolean owns(StripeEvent event) {
        return true;
    }

    /**
     * Whether the {@link StripeEventResolver}s' look-ups (network calls before the transaction) are for this
     * handler's events; billing's are, the payments' own events carry all they need.
     */
    default boolean wantsLinks() {
        return true;
    }

    /** Applies the event; runs inside the event's transaction and must not open its own. */
    Applied apply(StripeEvent event);

    enum Applied {
        /** The event changed something (or would have, had the ledger not already held it). */
        APPLIED,
        /** The event was read and deliberately does nothing (unpaid session, proration invoice, …). */
        IGNORED
    }
}
