package com.acme.payments.psp;

import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.psp.PaymentUpdateHandler.Applied;

/**
 * Records a PSP payment state in the inbox and applies it, in one transaction: the receipt, the
 * conditional transition and any outbox row commit together or not at all. Used by the webhook and by
 * the replay job, which feeds it the payment as the PSP reports it now.
 */
@Component
public class PaymentUpdateApplier {

    private static final Logger log = LoggerFactory.getLogger(PaymentUpdateApplier.class);

    private final InboxStore inbox;
    private final List<PaymentUpdateHandler> handlers;
    private final TransactionTemplate savepoint;

    PaymentUpdateApplier(InboxStore inbox, List<PaymentUpdateHandler> handlers,
            PlatformTransactionManager transactions) {
        this.inbox = inbox;
        this.handlers = handlers;
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
        Applied applied = applyKeepingTheReceipt(payment);
        WebhookOutcome outcome = switch (applied) {
            case APPLIED -> close(receipt.get(), "applied", WebhookOutcome.APPLIED);
            case ALREADY_PAST -> close(receipt.get(), "duplicate", WebhookOutcome.DUPLICATE);
            case NO_CHANGE -> close(receipt.get(), "ignored", WebhookOutcome.IGNORED);
            case CONTRADICTED -> close(receipt.get(), "ignored", WebhookOutcome.IGNORED); // final is final
            case DUPLICATE_CHARGE -> close(receipt.get(), "duplicate_charge", WebhookOutcome.DUPLICATE_CHARGE);
            case UNMATCHED -> WebhookOutcome.UNKNOWN_PAYMENT; // stays open for the replay job
        };
        log.debug("psp payment update payment={} state={} outcome={}", payment.id(), payment.state(), outcome.value());
        return outcome;
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
     * The apply runs under a savepoint: when it fails for anything but the database (a payload without
     * amount, a bug), only the apply rolls back; the receipt commits open, so the replay job reads the
     * payment's current truth from the PSP later. A webhook is never lost to a fault in its payload.
     */
    private Applied applyKeepingTheReceipt(PspPayment payment) {
        try {
            return savepoint.execute(status -> dispatch(payment));
        } catch (DataAccessException | TransactionException database) {
            throw database;
        } catch (RuntimeException applyFailed) {
            log.error("psp payment update payment={} state={} could not be applied; receipt kept open for replay: {}",
                    payment.id(), payment.state(), applyFailed.toString());
            return Applied.UNMATCHED;
        }
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

    private WebhookOutcome close(long receiptId, String reason, WebhookOutcome outcome) {
        inbox.close(receiptId, reason);
        return outcome;
    }
}
