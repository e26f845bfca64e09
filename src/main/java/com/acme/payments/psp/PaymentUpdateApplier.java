package com.acme.payments.psp;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.psp.PaymentUpdateHandler.Applied;

/**
 * Applies a PSP payment state recorded in the inbox: the conditional transition, any outbox row and the
 * receipt's close commit together or not at all. The webhook commits its receipt first
 * ({@link PspWebhookOrchestrator}) and applies it with {@link #applyReceived}; the replay job (feeding it the
 * payment as the PSP reports it now) and a Stripe event record the receipt inside their own transaction
 * ({@link #receive}, the apply under a savepoint).
 */
@Component
public class PaymentUpdateApplier {

    private static final Logger log = LoggerFactory.getLogger(PaymentUpdateApplier.class);

    private final InboxStore inbox;
    private final List<PaymentUpdateHandler> handlers;
    private final TransactionTemplate savepoint;
    private final PayloadFaultMetrics faults;

    PaymentUpdateApplier(InboxStore inbox, List<PaymentUpdateHandler> handlers,
            PlatformTransactionManager transactions, PayloadFaultMetrics faults) {
        this.inbox = inbox;
        this.handlers = handlers;
        this.faults = faults;
        this.savepoint = new TransactionTemplate(transactions);
        this.savepoint.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
    }

    @Transactional
    public WebhookOutcome receive(PspPayment payment) {
        var receipt = inbox.upsert(payment);
        if (receipt.isEmpty()) {
            // DEBUG: the webhook's one INFO line is the controller's (with the outcome)
            log.debug("psp webhook duplicate payment={} state={}", payment.id(), payment.state());
            return WebhookOutcome.DUPLICATE;
        }
        return closeAfter(receipt.get(), payment, applyKeepingTheReceipt(payment));
    }

    /**
     * The webhook's apply of a receipt committed already ({@link PspWebhookOrchestrator}): the receipt's
     * close, the transition and any outbox row commit together. No savepoint: a failure rolls all of it back and
     * the receipt stays open for the replay job ({@link #keptOpen} answers). The receipt is taken (closed) first,
     * before the payment's rows: that is the fence between concurrent deliveries of one state (a later one finds
     * it closed and applies nothing, {@link InboxStore.ReceiptClosed}) and the lock order the replay and a Stripe
     * event keep too (their upsert locks the receipt first), so none of them deadlocks with another.
     */
    @Transactional
    public WebhookOutcome applyReceived(long receiptId, PspPayment payment) {
        inbox.take(receiptId);
        Verdict verdict = Verdict.of(dispatch(payment));
        if (verdict.reason() == null) {
            inbox.reopen(receiptId);
        } else if (!verdict.reason().equals(Verdict.TAKEN_AS)) {
            inbox.correctReason(receiptId, verdict.reason());
        }
        return logged(payment, verdict.outcome());
    }

    private WebhookOutcome closeAfter(long receiptId, PspPayment payment, Applied applied) {
        Verdict verdict = Verdict.of(applied);
        if (verdict.reason() != null) {
            inbox.close(receiptId, verdict.reason());
        }
        return logged(payment, verdict.outcome());
    }

    private static WebhookOutcome logged(PspPayment payment, WebhookOutcome outcome) {
        log.debug("psp payment update payment={} state={} outcome={}", payment.id(), payment.state(), outcome.value());
        return outcome;
    }

    /** What an apply's result makes of its receipt: the reason it is closed with (null: stays open) and the answer. */
    private record Verdict(String reason, WebhookOutcome outcome) {

        /** The reason {@link InboxStore#take} closes a receipt with before its apply. */
        static final String TAKEN_AS = "applied";

        static Verdict of(Applied applied) {
            return switch (applied) {
                case APPLIED -> new Verdict(TAKEN_AS, WebhookOutcome.APPLIED);
                case ALREADY_PAST -> new Verdict("duplicate", WebhookOutcome.DUPLICATE);
                case NO_CHANGE -> new Verdict("ignored", WebhookOutcome.IGNORED);
                case CONTRADICTED -> new Verdict("ignored", WebhookOutcome.IGNORED); // final is final
                case DUPLICATE_CHARGE -> new Verdict("duplicate_charge", WebhookOutcome.DUPLICATE_CHARGE);
                case UNMATCHED -> new Verdict(null, WebhookOutcome.UNKNOWN_PAYMENT); // stays open for the replay job
            };
        }
    }

    /**
     * {@link #receive} as part of another Applier's write: a Stripe event's transaction, which also completes
     * the event's claim, so the receipt, the transition and the completion commit together. Joins, never opens.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public WebhookOutcome receiveJoined(PspPayment payment) {
        return receive(payment);
    }

    /** {@link #keepFaulted} inside the caller's transaction (see {@link #receiveJoined}). */
    @Transactional(propagation = Propagation.MANDATORY)
    public WebhookOutcome keepFaultedJoined(PspPayment payment, PaymentPayloadFault fault) {
        return keepFaulted(payment, fault);
    }

    /** Whether some handler's records know this payment, by the provider's id or our reference (a read). */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean knows(String paymentId, String referenceId) {
        return handlers.stream().anyMatch(handler -> handler.knows(paymentId, referenceId));
    }

    /** The order some handler's records tie this provider payment id to (a read); see {@link PaymentUpdateHandler#orderOf}. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<Long> orderOf(String paymentId) {
        return handlers.stream().map(handler -> handler.orderOf(paymentId)).flatMap(Optional::stream).findFirst();
    }

    /**
     * A webhook whose payment holds a value we cannot book: its receipt is stored open with the fault and
     * nothing is applied, so no value reaches a constraint; the replay job reads the PSP's truth instead.
     * Answered {@code unknown_payment}; a receipt processed already makes it a {@code duplicate}.
     */
    @Transactional
    public WebhookOutcome keepFaulted(PspPayment payment, PaymentPayloadFault fault) {
        if (inbox.upsert(payment, fault.kind().slug()).isEmpty()) {
            return WebhookOutcome.DUPLICATE;
        }
        logFaultKept(payment, fault);
        return WebhookOutcome.UNKNOWN_PAYMENT;
    }

    static void logFaultKept(PspPayment payment, PaymentPayloadFault fault) {
        log.warn("psp webhook payment={} holds a value that cannot be booked ({}: {}); receipt kept open for replay",
                PaymentPayloadRules.forLog(payment.id()), fault.kind().slug(), fault.getMessage());
    }

    /**
     * The replay job's step: apply the payment's current state (recorded as its own receipt), then
     * close the stale receipt it started from as superseded, unless the payment still matches nothing.
     * Empty when the lease on the stale receipt was taken over (nothing written).
     */
    @Transactional
    public Optional<WebhookOutcome> replay(long staleReceiptId, long leaseVersion, PspPayment current) {
        if (!inbox.holdLease(staleReceiptId, leaseVersion)) {
            return Optional.empty(); // another replayer holds the receipt now: write nothing
        }
        WebhookOutcome outcome = receive(current); // same transaction: this method is the proxied entry
        if (outcome != WebhookOutcome.UNKNOWN_PAYMENT) {
            inbox.supersede(staleReceiptId);
        }
        return Optional.of(outcome);
    }

    /**
     * The joined paths' apply (the replay's, a Stripe event's: the receipt is part of a larger transaction
     * there) runs under a savepoint: when it fails (a value that slipped past the payload rules and broke
     * a constraint, a bug), only the apply rolls back; the receipt commits open, so the replay job reads the
     * payment's current truth from the PSP later. A webhook is never lost to a fault in its payload. Only a
     * database that cannot go on (connection, lock, serialization, a concurrent duplicate key) fails it all:
     * then the savepoint cannot be trusted, and the PSP's retry or the caller's is the way on.
     */
    private Applied applyKeepingTheReceipt(PspPayment payment) {
        try {
            return savepoint.execute(status -> dispatch(payment));
        } catch (RuntimeException applyFailed) {
            keptOpen(payment, applyFailed);
            return Applied.UNMATCHED;
        }
    }

    /**
     * What a failed apply answers once it rolled back and its receipt stayed (under a savepoint, or committed
     * before the apply): {@code unknown_payment}, the replay job reading the PSP's truth later. Rethrown when
     * it was the database that cannot go on (connection, lock, serialization, a concurrent duplicate key).
     */
    WebhookOutcome keptOpen(PspPayment payment, RuntimeException applyFailed) {
        if (applyFailed instanceof DuplicateKeyException concurrent) {
            throw concurrent; // a concurrent writer, not the payload: the retry sees its row
        }
        if (applyFailed instanceof DataIntegrityViolationException constraint) {
            faults.constraint();
            // the SQL state only: the driver's message quotes the failing row
            log.error("psp payment update payment={} state={} broke a constraint (SQL state {}); receipt kept open for replay",
                    payment.id(), payment.state(), constraint.getMostSpecificCause() instanceof SQLException sql
                            ? sql.getSQLState() : constraint.getClass().getSimpleName());
            return WebhookOutcome.UNKNOWN_PAYMENT;
        }
        if (applyFailed instanceof DataAccessException || applyFailed instanceof TransactionException) {
            throw applyFailed;
        }
        log.error("psp payment update payment={} state={} could not be applied; receipt kept open for replay: {}",
                payment.id(), payment.state(), applyFailed.toString());
        return WebhookOutcome.UNKNOWN_PAYMENT;
    }

    private Applied dispatch(PspPayment payment) {
        boolean handled = false;
        for (PaymentUpdateHandler handler : handlers) {
            if (handler.handles(payment)) {
                handled = true;
                Applied applied = handler.apply(payment);
                if (applied != Applied.UNMATCHED) {
                    return applied;
                }
            }
        }
        // a payment type we never create (e.g. WITHDRAWAL) moves nothing; a known type matching nothing waits
        return handled ? Applied.UNMATCHED : Applied.NO_CHANGE;
    }
}
