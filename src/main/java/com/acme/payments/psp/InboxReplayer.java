package com.acme.payments.psp;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.Backoff;
import com.acme.payments.sweep.DatabaseGauges;
import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.Schedules;
import com.acme.payments.sweep.Shutdown;
import com.acme.payments.sweep.SweepLoop;
import com.acme.payments.sweep.Outcome;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Applies webhook receipts that were never applied (the payment was not linked yet, the transaction
 * failed, the PSP never redelivered). It re-fetches the payment's CURRENT state — a stale AUTHORIZED
 * receipt may be COMPLETED by now — applies it, and closes the stale receipt as superseded, so it can
 * never starve newer receipts out of the batch. Receipts that still match no order stay open. A receipt that
 * can never apply — its payment id is over the limit, so the PSP cannot be asked about it — is closed
 * ({@code ignored}, its fault kept) and counted ({@code payments.inbox.unanswerable}), and leaves with the
 * closed receipts after {@code payments.retention.inbox-closed}.
 */
@Component
class InboxReplayer implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(InboxReplayer.class);

    private final InboxStore inbox;
    private final PaymentUpdateApplier updates;
    private final PaymentProvider psp;
    private final ReplayProperties properties;
    private final Shutdown shutdown;
    private final Clock clock;
    private final JobMetrics metrics;
    private final Backoff backoff;
    private final PayloadFaultMetrics faults;

    InboxReplayer(InboxStore inbox, PaymentUpdateApplier updates, PaymentProvider psp, ReplayProperties properties,
            Shutdown shutdown, Clock clock, MeterRegistry registry, DatabaseGauges gauges, PayloadFaultMetrics faults) {
        this.inbox = inbox;
        this.updates = updates;
        this.psp = psp;
        this.properties = properties;
        this.shutdown = shutdown;
        this.clock = clock;
        this.metrics = new JobMetrics(registry, "inbox-replay");
        this.backoff = Backoff.forJob(clock, properties.interval());
        this.faults = faults;
        gauges.registerOpen("payments.inbox.unprocessed", Tags.empty(), "PSP webhook receipts not applied yet",
                "Age of the oldest unprocessed receipt", inbox::unprocessedRows);
        gauges.registerOpen("payments.inbox.faulted", Tags.empty(),
                "Open PSP webhook receipts whose payload held a value that cannot be booked",
                "Age of the oldest open receipt with a payload fault", inbox::faultedRows);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.guarded(registrar, properties.enabled(), properties.interval(), properties.initialDelay(), backoff,
                shutdown, this, "replay");
    }

    /** One pass; returns how many receipts it leased. */
    int replay() {
        long started = clock.millis();
        List<InboxStore.Leased> due = inbox.leaseDue(properties.minAge(), properties.batchSize());
        metrics.claimed(due.size());
        SweepLoop.process("inbox-replay", due, this::replayOne, metrics, backoff, shutdown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
        if (!due.isEmpty()) {
            log.info("inbox replay: leased={}", due.size());
        }
        return due.size();
    }

    private Outcome replayOne(InboxStore.Leased receipt) {
        if (receipt.unanswerable()) {
            return closeUnanswerable(receipt);
        }
        Optional<PspPayment> current;
        try {
            current = psp.get(receipt.paymentId());
        } catch (PaymentOutcomeUnknown unreachable) {
            return Outcome.UNREACHABLE;
        }
        if (current.isEmpty()) {
            log.warn("inbox replay: the PSP does not know payment {} (receipt {})", receipt.paymentId(), receipt.id());
            return Outcome.STILL_UNKNOWN;
        }
        Optional<WebhookOutcome> outcome = updates.replay(receipt.id(), receipt.leaseVersion(), current.get());
        if (outcome.isEmpty()) {
            return Outcome.FENCED;
        }
        return outcome.get() == WebhookOutcome.UNKNOWN_PAYMENT ? Outcome.STILL_UNKNOWN : Outcome.RESOLVED;
    }

    /** No PSP call: the PSP never issued an id this long, so nothing it could answer would apply. */
    private Outcome closeUnanswerable(InboxStore.Leased receipt) {
        if (!inbox.closeUnanswerable(receipt.id(), receipt.leaseVersion())) {
            return Outcome.FENCED;
        }
        faults.unanswerableClosed();
        log.warn("inbox replay: receipt {} closed unanswerable: its payment id is over the limit", receipt.id());
        return Outcome.RESOLVED;
    }
}
