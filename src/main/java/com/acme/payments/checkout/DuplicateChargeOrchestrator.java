package com.acme.payments.checkout;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.common.jobs.SweepLoop;
import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;
import com.acme.payments.psp.CreatePayment;
import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PspClient;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.PspRejected;

/**
 * Refunds a second charge in full, exactly once: claim (one conditional UPDATE, committed) → POST the
 * REFUND with the stored reference → settle. Every other caller — another instance, a retry, the auto
 * refund — replays the stored result or reconciles by that reference; never a second POST.
 * Deliberately not transactional.
 */
@Component
class DuplicateChargeOrchestrator {

    private static final Logger log = LoggerFactory.getLogger(DuplicateChargeOrchestrator.class);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(10);

    private final DuplicateChargeStore duplicates;
    private final DuplicateRefundApplier applier;
    private final PspClient psp;
    private final DuplicateChargeMetrics metrics;

    DuplicateChargeOrchestrator(DuplicateChargeStore duplicates, DuplicateRefundApplier applier, PspClient psp,
            DuplicateChargeMetrics metrics) {
        this.duplicates = duplicates;
        this.applier = applier;
        this.psp = psp;
        this.metrics = metrics;
    }

    /** The charge after the call, and whether this call created the refund (201) or replayed it (200). */
    Answer refund(String pspPaymentId, String actor) {
        DuplicateCharge charge = duplicates.find(pspPaymentId)
                .orElseThrow(() -> new Problems.NotFound("Duplicate charge"));
        String reference = "dcr_" + UUID.randomUUID().toString().replace("-", "");
        if (!duplicates.claimRefund(pspPaymentId, reference, actor)) {
            return new Answer(settledOrResolved(current(pspPaymentId)), false);
        }
        log.info("duplicate charge refund claimed payment={} referenceId={} by {}", pspPaymentId, reference, actor);
        PspPayment refund;
        try {
            refund = psp.create(CreatePayment.refund(charge.amount(), charge.currency(), reference, pspPaymentId));
        } catch (PspRejected rejected) {
            duplicates.settle(reference, false, null, rejected.errorCode());
            metrics.refund("rejected");
            return new Answer(current(pspPaymentId), true);
        } catch (PaymentOutcomeUnknown unknown) {
            duplicates.markUnknown(reference);
            metrics.refund("unknown");
            log.warn("duplicate charge refund outcome unknown referenceId={}: {}", reference, unknown.getMessage());
            return new Answer(settledOrResolved(current(pspPaymentId)), true);
        } catch (RuntimeException | Error unclassified) {
            markUnknownAfter(reference, unclassified);
            throw unclassified;
        }
        try {
            applier.settle(reference, refund);
        } catch (RuntimeException | Error unclassified) {
            markUnknownAfter(reference, unclassified);
            throw unclassified;
        }
        return new Answer(current(pspPaymentId), true);
    }

    private DuplicateCharge settledOrResolved(DuplicateCharge charge) {
        if (!charge.refundOpen()) {
            return charge;
        }
        resolve(charge, false);
        DuplicateCharge now = current(charge.pspPaymentId());
        if (now.refundOpen()) {
            throw new DuplicateRefundOutcomeUnknown(now.refundReferenceId(), RETRY_AFTER);
        }
        return now;
    }

    /** Reconciles an open refund by its reference; shared with the sweep ({@code underLease}). */
    SweepLoop.Outcome resolve(DuplicateCharge charge, boolean underLease) {
        List<PspPayment> found;
        try {
            found = psp.findByReference(charge.refundReferenceId());
        } catch (RuntimeException lookupFailed) {
            return SweepLoop.Outcome.UNREACHABLE;
        }
        if (found.isEmpty()) {
            return SweepLoop.Outcome.STILL_UNKNOWN;
        }
        PspPayment refund = found.stream().filter(p -> !p.paymentState().isFailure()).findFirst().orElse(found.get(0));
        if (underLease) {
            return applier.settleUnderLease(charge, refund).isPresent() ? SweepLoop.Outcome.RESOLVED
                    : SweepLoop.Outcome.FENCED;
        }
        applier.settle(charge.refundReferenceId(), refund);
        return SweepLoop.Outcome.RESOLVED;
    }

    DuplicateCharge current(String pspPaymentId) {
        return duplicates.find(pspPaymentId).orElseThrow();
    }

    private void markUnknownAfter(String reference, Throwable cause) {
        try {
            duplicates.markUnknown(reference);
        } catch (RuntimeException alsoFailed) {
            cause.addSuppressed(alsoFailed); // the sweep ages IN_FLIGHT into UNKNOWN in any case
        }
        log.error("duplicate charge refund referenceId={} ended unclassified, marked UNKNOWN", reference, cause);
    }

    record Answer(DuplicateCharge charge, boolean created) {
    }

    static final class DuplicateRefundOutcomeUnknown extends ApiProblem {
        DuplicateRefundOutcomeUnknown(String referenceId, Duration retryAfter) {
            super(ProblemType.REFUND_OUTCOME_UNKNOWN, "The payment provider's answer is not known yet; call again later.");
            with("referenceId", referenceId);
            retryAfter(retryAfter);
        }
    }
}
