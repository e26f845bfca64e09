package com.acme.payments.stripe;

import java.time.Duration;

import org.springframework.http.HttpStatus;

import com.acme.payments.common.web.ApiProblem;

/** The webhook's answers to Stripe that are not a 200. Stripe reads only the status. */
final class StripeProblems {

    private StripeProblems() {
    }

    /** Missing, malformed, wrong or stale signature. No detail: a prober learns nothing. */
    static final class SignatureInvalid extends ApiProblem {
        SignatureInvalid() {
            super(HttpStatus.BAD_REQUEST, "stripe-signature-invalid", "Invalid Stripe signature", null);
        }
    }

    /** A correctly signed body that is not an event. */
    static final class EventMalformed extends ApiProblem {
        EventMalformed() {
            super(HttpStatus.BAD_REQUEST, "stripe-event-malformed", "Malformed Stripe event", null);
        }
    }

    /** STRIPE_WEBHOOK_SECRET is not set: a misconfigured endpoint must not look healthy. */
    static final class WebhookNotConfigured extends ApiProblem {
        WebhookNotConfigured() {
            super(HttpStatus.INTERNAL_SERVER_ERROR, "stripe-webhook-not-configured", "Stripe webhook not configured",
                    "The Stripe webhook secret is not configured on this service.");
        }
    }

    /** Another worker holds a live claim on the event: not a duplicate, come back later. */
    static final class EventInFlight extends ApiProblem {
        EventInFlight(long retryAfterSeconds) {
            super(HttpStatus.SERVICE_UNAVAILABLE, "stripe-event-in-flight", "Event in progress",
                    "This event is being processed by another worker; retry later.");
            retryAfter(Duration.ofSeconds(Math.max(1, retryAfterSeconds)));
        }
    }

    /** The idempotency store cannot be reached: never an optimistic "probably new". */
    static final class StoreUnavailable extends ApiProblem {
        StoreUnavailable() {
            super(HttpStatus.SERVICE_UNAVAILABLE, "database-unavailable", "Database unavailable",
                    "The event store cannot be reached; retry shortly.");
            retryAfter(Duration.ofSeconds(5));
        }
    }

    /** Processing failed and the claim was released, so Stripe's redelivery processes it afresh. */
    static final class EventFailed extends ApiProblem {
        EventFailed() {
            super(HttpStatus.INTERNAL_SERVER_ERROR, "stripe-event-failed", "Event processing failed",
                    "The event could not be applied; it will be processed again when Stripe redelivers it.");
        }
    }
}
