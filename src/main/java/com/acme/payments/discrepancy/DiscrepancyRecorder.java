package com.acme.payments.discrepancy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.OutboxStore;

/**
 * Called by the features that find a discrepancy, inside their business transaction (the Store and the
 * outbox both require one): the row, the {@code discrepancy} effect and the count commit with the apply
 * that found it, or not at all. The same discrepancy found again (a redelivery, the replay job, a poll)
 * writes nothing more.
 */
@Component
public class DiscrepancyRecorder {

    private static final Logger log = LoggerFactory.getLogger(DiscrepancyRecorder.class);

    private final DiscrepancyStore store;
    private final OutboxStore outbox;
    private final DiscrepancyMetrics metrics;

    DiscrepancyRecorder(DiscrepancyStore store, OutboxStore outbox, DiscrepancyMetrics metrics) {
        this.store = store;
        this.outbox = outbox;
        this.metrics = metrics;
    }

    /** True when this was the first record of it (then counted and sent once). */
    public boolean record(Discrepancy discrepancy) {
        if (discrepancy.kind() == DiscrepancyKind.DUPLICATE_CHARGE) {
            throw new IllegalArgumentException("second charges are recorded by checkout; count them with "
                    + "duplicateChargeRecorded()");
        }
        if (!store.record(discrepancy)) {
            return false;
        }
        outbox.enqueue(effect(discrepancy));
        metrics.recordedOnCommit(discrepancy.kind());
        log.error("discrepancy kind={} orderRef={} payment={} amount={} {}: {}", discrepancy.kind().value(),
                discrepancy.orderRef(), discrepancy.pspPaymentId(), discrepancy.amount().toPlainString(),
                discrepancy.currency(), discrepancy.detail());
        return true;
    }

    /**
     * A second charge was recorded (once, by checkout, in the caller's transaction): counted as a
     * {@code duplicate_charge} discrepancy when that transaction commits. Its effect is checkout's own
     * {@code duplicate_charge}; it leaves the list once refunded, the count stays.
     */
    public void duplicateChargeRecorded() {
        metrics.recordedOnCommit(DiscrepancyKind.DUPLICATE_CHARGE);
    }

    /** Idempotency-Key {@code <pspPaymentId>:<discrepancy kind>}, in the order's stream like its other effects. */
    private static OutboxEntry effect(Discrepancy discrepancy) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", "discrepancy");
        body.put("discrepancy", discrepancy.kind().value());
        body.put("orderRef", discrepancy.orderRef());
        body.put("pspPaymentId", discrepancy.pspPaymentId());
        body.put("amount", discrepancy.amount().toPlainString());
        body.put("currency", discrepancy.currency());
        body.put("detail", discrepancy.detail());
        return new OutboxEntry("discrepancy", "order", discrepancy.orderRef(), discrepancy.pspPaymentId(), body,
                discrepancy.kind().value());
    }
}
