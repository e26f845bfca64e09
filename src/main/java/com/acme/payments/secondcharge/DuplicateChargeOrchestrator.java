package com.acme.payments.secondcharge;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.refund.SecondChargeRefunds;
import com.acme.payments.sweep.Outcome;
import com.acme.payments.sweep.PollJob;
import com.acme.payments.sweep.Poller;

/**
 * A second charge's refund, asked by an operator or — with {@code payments.duplicates.auto-refund} — by the
 * {@code duplicate-auto-refund} poll, through the same claim ({@link SecondChargeRefunds}), so it never adds
 * a second refund. Their refunds, once claimed, are refunds like any other: swept, polled and abandoned by
 * the refund feature. The poll runs on {@code payments.sweep.*} (the schedule it always had), scheduled by
 * {@code sweep.Polls}; deliberately not transactional.
 */
@Component
public class DuplicateChargeOrchestrator implements Poller {

    private static final Logger log = LoggerFactory.getLogger(DuplicateChargeOrchestrator.class);
    private static final String AUTO_REFUND = "auto-refund";

    private final DuplicateChargeStore duplicates;
    private final SecondChargeRefunds refunds;
    private final DuplicateChargeProperties properties;

    DuplicateChargeOrchestrator(DuplicateChargeStore duplicates, SecondChargeRefunds refunds,
            DuplicateChargeProperties properties) {
        this.duplicates = duplicates;
        this.refunds = refunds;
        this.properties = properties;
    }

    /** The operator's call: claims and makes the charge's refund, or replays its live one. */
    public SecondChargeRefunds.Answer refund(DuplicateCharge charge, String actor, String reason) {
        return refunds.refund(charge.toRefund(), actor, reason);
    }

    /**
     * Charges nobody asked to refund yet, {@code batch-size} of {@code payments.sweep.*} per run; with
     * auto-refund off the poll claims nothing (and reads nothing). A charge whose refund failed is not
     * claimed again: an operator decides.
     */
    @Override
    public List<PollJob<?>> polls() {
        return List.of(new PollJob<DuplicateCharge>("duplicate-auto-refund",
                PollJob.onSweep(sweep -> properties.autoRefund() ? duplicates.neverRefunded(sweep.batchSize())
                        : List.of()),
                this::autoRefund));
    }

    /**
     * RESOLVED once the charge has its refund (created now or replayed); STILL_UNKNOWN while that refund's
     * outcome is open (the refund sweep settles it; the charge is not claimed again, it has a refund). The
     * refund claim turns a PSP outage into an UNKNOWN refund, never an exception, so this ask never answers
     * UNREACHABLE; an unexpected failure reaches the sweep loop, which logs and counts it.
     */
    private Outcome autoRefund(DuplicateCharge charge) {
        try {
            refund(charge, AUTO_REFUND, null);
            return Outcome.RESOLVED;
        } catch (ApiProblem stillOpen) {
            log.info("auto refund of duplicate charge payment={}: {}", charge.pspPaymentId(), stillOpen.getMessage());
            return Outcome.STILL_UNKNOWN;
        }
    }
}
