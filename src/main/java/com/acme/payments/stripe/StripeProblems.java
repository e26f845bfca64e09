package com.acme.payments.stripe;

import java.time.Duration;


import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;

/** The webhook's answers to Stripe that are not a 200. Stripe reads only the status. */
final class StripeProblems {

    private StripeProblems() {
    }

    /** Missing, malformed, wrong or stale signature. No detail: a prober learns nothing. */
    static final class SignatureInvalid extends ApiProblem {
        SignatureInvalid() {
            super(ProblemType.STRIPE_SIGNATURE_INVALID, null);
        }
    }

    /** A correctly signed body that is not an event. */
    static final class EventMalformed extends ApiProblem {
        EventMalformed() {
            super(ProblemType.STRIPE_EVENT_MALFORMED, null);
        }
    }

    /** STRIPE_WEBHOOK_SECRET is not set: a misconfigured endpoint must not look healthy. */
    static final class WebhookNotConfigured extends ApiProblem {
        WebhookNotConfigured() {
            super(ProblemType.STRIPE_WEBHOOK_NOT_CONFIGURED, "The Stripe webhook secret is not configured on this service.");
        }
    }

    /** Another worker holds a live claim on the event: not a duplicate, come back later. */
    static final class EventInFlight extends ApiProblem {
        EventInFlight(long retryAfterSeconds) {
            super(ProblemType.STRIPE_EVENT_IN_FLIGHT, "This event is being processed by another worker; retry later.");
            retryAfter(Duration.ofSeconds(Math.max(1, retryAfterSeconds)));
        }
    }

    /** The idempotency store cannot be reached: never an optimistic "probably new". */
    static final class StoreUnavailable extends ApiProblem {
        StoreUnavailable() {
            super(ProblemType.DATABASE_UNAVAILABLE, "The event store cannot be reached; retry shortly.");
            retryAfter(Duration.ofSeconds(5));
        }
    }

    /**
     * The database is busy: no permit of the bulkhead within {@code stripe.bulkhead.max-wait}. The same
     * answer as an unreachable store (nothing was applied, Stripe retries), another detail.
     */
    static final class StoreBusy extends ApiProblem {
        StoreBusy() {
            super(ProblemType.DATABASE_UNAVAILABLE, "Too many events are being processed; retry shortly.");
            retryAfter(Duration.ofSeconds(5));
        }
    }

    /** Processing failed and the claim was released, so Stripe's redelivery processes it afresh. */
    static final class EventFailed extends ApiProblem {
        EventFailed() {
            super(ProblemType.STRIPE_EVENT_FAILED, "The event could not be applied; it will be processed again when Stripe redelivers it.");
        }
    }
}
