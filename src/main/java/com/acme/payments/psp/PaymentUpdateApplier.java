package com.acme.payments.psp;

import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

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

    PaymentUpdateApplier(InboxStore inbox, List<PaymentUpdateHandler> handlers) {
        this.inbox = inbox;
        this.handlers = handlers;
    }

    @Transactional
    public WebhookOutcome receive(PspPayment payment) {
        var receipt = inbox.upsert(payment);
        if (receipt.isEmpty()) {
            log.info("psp webhook duplicate payment={} state={}", payment.id(), payment.state());
            return WebhookOutcome.DUPLICATE;
        }
        Applied applied = dispatch(payment);
        WebhookOutcome outcome = switch (applied) {
            case APPLIED -> close(receipt.get(), "applied", WebhookOutcome.APPLIED);
            case ALREADY_PAST -> close(receipt.get(), "duplicate", WebhookOutcome.DUPLICATE);
            case NO_CHANGE -> close(receipt.get(), "ignored", WebhookOutcome.IGNORED);
            case UNMATCHED -> WebhookOutcome.UNKNOWN_PAYMENT; // stays open for the replay job
        };
        log.info("psp payment update payment={} state={} outcome={}", payment.id(), payment.state(), outcome.value());
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

    private Applied dispatch(PspPayment payment) {
        for (PaymentUpdateHandler handler : handlers) {
            if (handler.handles(payment)) {
                return handler.apply(payment);
            }
        }
        return Applied.NO_CHANGE; // a payment type we never create (e.g. WITHDRAWAL): nothing to do
    }

    private WebhookOutcome close(long receiptId, String reason, WebhookOutcome outcome) {
        inbox.close(receiptId, reason);
        return outcome;
    }
}
