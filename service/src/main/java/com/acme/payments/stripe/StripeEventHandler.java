package com.acme.payments.stripe;

import java.util.Set;

/**
 * What applies a Stripe event to the business: implemented by billing, called by this package inside
 * the one transaction that also marks the event completed (so billing depends on Stripe, never back).
 */
public interface StripeEventHandler {

    /** The event types this handler applies; every other type is answered 200 without a claim. */
    Set<String> handledTypes();

    /** Applies the event; runs inside the event's transaction and must not open its own. */
    Applied apply(StripeEvent event);

    enum Applied {
        /** The event changed something (or would have, had the ledger not already held it). */
        APPLIED,
        /** The event was read and deliberately does nothing (unpaid session, proration invoice, …). */
        IGNORED
    }
}
