package com.acme.payments.psp;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A PSP webhook's two commits: the inbox receipt alone (one statement, no transaction), then the apply in
 * one business transaction that closes the receipt. The receipt is committed before anything is applied, so
 * a failed apply rolls back only itself and the receipt stays open for the replay job (no savepoint needed);
 * a receipt processed already is a duplicate in that one statement. Payload faults never get this far past
 * the receipt: the controller validated the payment before the first statement.
 */
@Component
class PspWebhookOrchestrator {

    private static final Logger log = LoggerFactory.getLogger(PspWebhookOrchestrator.class);

    private final InboxStore inbox;
    private final PaymentUpdateApplier updates;

    PspWebhookOrchestrator(InboxStore inbox, PaymentUpdateApplier updates) {
        this.inbox = inbox;
        this.updates = updates;
    }

    WebhookOutcome receive(PspPayment payment) {
        Optional<Long> receipt = inbox.receiveAlone(payment, null);
        if (receipt.isEmpty()) {
            // DEBUG: the webhook's one INFO line is the controller's (with the outcome)
            log.debug("psp webhook duplicate payment={} state={}", payment.id(), payment.state());
            return WebhookOutcome.DUPLICATE;
        }
        try {
            return updates.applyReceived(receipt.get(), payment);
        } catch (InboxStore.ReceiptClosed concurrent) {
            // a concurrent delivery of the same state closed the receipt first: ours rolled back, nothing of it kept
            log.debug("psp webhook duplicate (concurrent) payment={} state={}", payment.id(), payment.state());
            return WebhookOutcome.DUPLICATE;
        } catch (RuntimeException applyFailed) {
            return updates.keptOpen(payment, applyFailed); // or rethrown: the database, not the payload
        }
    }

    /**
     * A payment holding a value we cannot book: its receipt is stored open with the fault, alone (one
     * statement), and nothing is applied; see {@link PaymentUpdateApplier#keepFaulted}.
     */
    WebhookOutcome keepFaulted(PspPayment payment, PaymentPayloadFault fault) {
        if (inbox.receiveAlone(payment, fault.kind().slug()).isEmpty()) {
            return WebhookOutcome.DUPLICATE;
        }
        PaymentUpdateApplier.logFaultKept(payment, fault);
        return WebhookOutcome.UNKNOWN_PAYMENT;
    }
}
