package com.acme.payments.stripe;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionSystemException;

import com.acme.payments.stripe.ProcessedEventStore.Claim;
import com.acme.payments.stripe.StripeEventHandler.Applied;
import com.acme.payments.stripe.StripeEventApplier.ClaimLost;

/**
 * The life of one verified event: a permit of the {@link StripeBulkhead} (queued for, bounded), claim,
 * resolve what the payload lacks from the Stripe API (outside any transaction and without the permit),
 * apply in one transaction (retried on serialization conflicts or deadlocks inside the same claim), answer.
 * No permit within the wait answers 503 {@code database-unavailable} with {@code Retry-After}. A failure releases the claim and answers 500 (503 when it was the database)
 * so Stripe's redelivery is let in; a crash never reaches the release, and the claim expiry recovers the event.
 * Not transactional itself: the claim, the business transaction and the release are separate commits.
 */
@Component
class StripeWebhookOrchestrator {

    private static final Logger log = LoggerFactory.getLogger(StripeWebhookOrchestrator.class);

    private final ProcessedEventStore events;
    private final StripeEventApplier transaction;
    private final StripeEventRouter router;
    private final SerializationRetry retry;
    private final StripeMetrics metrics;
    private final ObjectProvider<StripeEventResolver> resolvers;
    private final StripeBulkhead bulkhead;

    StripeWebhookOrchestrator(ProcessedEventStore events, StripeEventApplier transaction,
            StripeEventRouter router, SerializationRetry retry, StripeMetrics metrics,
            ObjectProvider<StripeEventResolver> resolvers, StripeBulkhead bulkhead) {
        this.events = events;
        this.transaction = transaction;
        this.router = router;
        this.retry = retry;
        this.metrics = metrics;
        this.resolvers = resolvers;
        this.bulkhead = bulkhead;
    }

    Outcome receive(StripeEvent event) {
        if (!router.handledTypes().contains(event.type())) {
            metrics.event(event.type(), "unhandled");
            log.debug("stripe event not handled, eventId={} type={}", event.id(), event.type());
            return Outcome.UNHANDLED;
        }
        StripeBulkhead.Permit permit;
        try {
            permit = bulkhead.enter();
        } catch (StripeBulkhead.QueueTimeout busy) {
            throw busy(event, null);
        }
        try (permit) {
            return receive(event, permit);
        }
    }

    /** Under the permit: claim, resolve (without the permit when a resolver calls out), apply, answer. */
    private Outcome receive(StripeEvent event, StripeBulkhead.Permit permit) {
        Optional<String> fault = StripeEventRules.faultIn(event);
        if (fault.isPresent()) {
            return faulted(event, fault.get());
        }
        Claim claim;
        try {
            claim = events.claim(event.id(), event.type());
        } catch (DataAccessException | TransactionException unreachable) {
            // Without the store we cannot tell new from duplicate: never guess, let Stripe retry.
            metrics.event(event.type(), "store_unavailable");
            log.warn("stripe event not claimed, idempotency store unavailable, eventId={} error={}", event.id(),
                    unreachable.getClass().getSimpleName());
            throw new StripeProblems.StoreUnavailable();
        }
        switch (claim.status()) {
            case DUPLICATE:
                metrics.event(event.type(), "duplicate");
                log.info("stripe event already completed, eventId={} type={}", event.id(), event.type());
                return Outcome.DUPLICATE;
            case IN_FLIGHT:
                metrics.event(event.type(), "in_flight");
                metrics.inFlightRefusal();
                log.info("stripe event still processing elsewhere, eventId={} type={}", event.id(), event.type());
                throw new StripeProblems.EventInFlight(claim.secondsLeft());
            case TAKEN_OVER:
                metrics.takeover();
                log.warn("stripe event claim taken over after expiry, eventId={} type={}", event.id(), event.type());
                break;
            default:
                break;
        }
        Applied applied;
        try {
            // Stripe API reads: before the transaction, never inside, and never holding a permit
            StripeEvent resolved = !callsOut(event) ? resolve(event)
                    : transaction.wantsLinks(event) ? permit.outside(() -> resolve(event)) : event;
            applied = retry.run("stripe event " + event.id(),
                    attempt -> transaction.apply(resolved, claim));
        } catch (StripeBulkhead.QueueTimeout busy) {
            // Queued again after the look-up and the wait ran out: give the claim back (one short statement
            // outside the bound; if it fails the expiry recovers the event) so the retry is let in.
            throw busy(event, release(claim));
        } catch (ClaimLost lost) {
            // Not ours any more: the new owner completes it. Nothing to release; Stripe retries.
            metrics.event(event.type(), "claim_lost");
            log.warn("stripe event claim lost to a takeover, eventId={}", event.id());
            throw new StripeProblems.EventFailed();
        } catch (DataAccessResourceFailureException | TransientDataAccessResourceException
                | CannotCreateTransactionException | TransactionSystemException unreachable) {
            // The database, not the event: no connection within the pool's timeout, a connection cut, a
            // commit whose answer was lost. Same answer as an unreachable store: retry.
            boolean released = release(claim);
            metrics.event(event.type(), "store_unavailable");
            log.warn("stripe event not applied, database unavailable, claim released={}, eventId={} error={}",
                    released, event.id(), unreachable.getClass().getSimpleName());
            throw new StripeProblems.StoreUnavailable();
        } catch (RuntimeException failure) {
            boolean released = release(claim);
            metrics.event(event.type(), "failed");
            log.error("stripe event failed, claim released={}, eventId={} type={}", released, event.id(),
                    event.type(), failure);
            throw new StripeProblems.EventFailed();
        }
        metrics.event(event.type(), applied == Applied.APPLIED ? "applied" : "ignored");
        log.info("stripe event {}, eventId={} type={}", applied == Applied.APPLIED ? "applied" : "ignored",
                event.id(), event.type());
        return applied == Applied.APPLIED ? Outcome.APPLIED : Outcome.IGNORED;
    }

    /**
     * Signed garbage: a redelivery brings the same bytes, so the event is kept as faulted (for the listing and
     * the alert) and answered 200; a 5xx would only make Stripe retry it for three days.
     */
    private Outcome faulted(StripeEvent event, String reason) {
        String id = StripeEventRules.storableId(event.id());
        boolean first;
        try {
            first = events.fault(id, event.type(), reason);
        } catch (DataAccessException | TransactionException unreachable) {
            metrics.event(event.type(), "store_unavailable");
            log.warn("stripe event faulted but not recorded, idempotency store unavailable, eventId={} error={}", id,
                    unreachable.getClass().getSimpleName());
            throw new StripeProblems.StoreUnavailable();
        }
        metrics.fault(event.type());
        log.warn("stripe event faulted, nothing applied, answered 200: eventId={} type={} firstDelivery={} reason={}",
                id, event.type(), first, reason);
        return Outcome.FAULTED;
    }

    private StripeProblems.StoreBusy busy(StripeEvent event, Boolean released) {
        metrics.event(event.type(), "queue_timeout");
        log.warn("stripe event not processed, no database permit within stripe.bulkhead.max-wait, claim "
                + "released={}, eventId={} type={}", released, event.id(), event.type());
        return new StripeProblems.StoreBusy();
    }

    private boolean callsOut(StripeEvent event) {
        return resolvers.orderedStream().anyMatch(resolver -> resolver.callsOut(event));
    }

    private StripeEvent resolve(StripeEvent event) {
        StripeEvent resolved = event;
        for (StripeEventResolver resolver : resolvers.orderedStream().toList()) {
            resolved = resolver.resolve(resolved);
        }
        return resolved;
    }

    /** Gives the claim back; if even that fails (database gone), the claim expiry recovers the event. */
    private boolean release(Claim claim) {
        try {
            return events.release(claim);
        } catch (DataAccessException | TransactionException e) {
            log.warn("stripe event claim not released, the expiry will recover it, eventId={} error={}",
                    claim.eventId(), e.getClass().getSimpleName());
            return false;
        }
    }

    enum Outcome {
        APPLIED, IGNORED, UNHANDLED, DUPLICATE, FAULTED
    }
}
