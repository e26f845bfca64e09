package com.acme.payments.refund;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.FencedApplier;
import com.acme.payments.sweep.Lease;
import com.acme.payments.sweep.Outcome;
import com.acme.payments.sweep.PollJob;
import com.acme.payments.sweep.Poller;
import com.acme.payments.sweep.Resolver;
import com.acme.payments.sweep.SweepJob;
import com.acme.payments.sweep.Unclassified;
import com.acme.payments.common.money.Amounts;
import com.acme.payments.common.web.Problems;
import com.acme.payments.order.Order;
import com.acme.payments.psp.CreatePayment;
import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PaymentProvider;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.PspRejected;
import com.acme.payments.refund.RefundProblems.RefundOutcomeUnknown;
import com.acme.payments.refund.RefundClaimApplier.Claim;

/**
 * The refund flow, for an order's payment and for a second charge alike; deliberately NOT transactional.
 * Claim and reservation commit first; only the claim's owner POSTs the REFUND payment; every other caller
 * (a retry with the same key, a concurrent double-click, another instance, the auto-refund) replays the
 * stored result or reconciles by the stored reference — never a second POST.
 */
@Component
public class RefundOrchestrator implements SecondChargeRefunds, Resolver<Refund>, Poller {

    private static final Logger log = LoggerFactory.getLogger(RefundOrchestrator.class);

    private final RefundStore refunds;
    private final RefundClaimApplier claims;
    private final RefundApplier applier;
    private final FencedApplier fenced;
    private final PaymentProvider psp;
    private final RefundProperties properties;
    private final RefundMetrics metrics;

    RefundOrchestrator(RefundStore refunds, RefundClaimApplier claims, RefundApplier applier, FencedApplier fenced,
            PaymentProvider psp, RefundProperties properties, RefundMetrics metrics) {
        this.refunds = refunds;
        this.claims = claims;
        this.applier = applier;
        this.fenced = fenced;
        this.psp = psp;
        this.properties = properties;
        this.metrics = metrics;
    }

    /** Refunds of orders and of second charges alike (one table), on the same sweep settings as checkout. */
    @Override
    public SweepJob<Refund> job() {
        return new SweepJob<>("refund-sweep", "refund", refunds, new SweepJob.Gauge("refund",
                "Refund attempts in UNKNOWN", "Age of the oldest UNKNOWN refund attempt"));
    }

    /**
     * The straggler poll for refunds: a DONE refund whose PSP state is not final (the PSP accepted it as
     * PENDING) past the grace period is read from the PSP, so a later DECLINED is not missed when its
     * webhook never comes; and a refund an operator abandoned is asked about by its reference for
     * {@code payments.refunds.abandoned-watch}, so one the PSP made after all is booked again even when its
     * webhook is lost. Both only read: neither ever sends a refund's create again.
     */
    @Override
    public List<PollJob<?>> polls() {
        return List.of(new PollJob<Refund>("refund-straggler-poll",
                schedule -> refunds.claimNotFinal(schedule.grace(), properties.abandonedWatch(), schedule.batchSize()),
                refund -> {
                    try {
                        return pollAccepted(refund);
                    } catch (PaymentOutcomeUnknown unreachable) {
                        return Outcome.UNREACHABLE;
                    }
                }));
    }

    /** The currency is checked again under the order lock in the claim: this read may predate PAID. */
    Answer refund(Order order, String refundKey, BigDecimal amount, String currency, String actor, String reason) {
        Amounts.Checked money = Amounts.check(amount, currency);
        if (order.paidCurrency() != null && !order.paidCurrency().equals(money.currency())) {
            throw Problems.ValidationFailed.of("currency", "must be the order's paid currency " + order.paidCurrency());
        }
        Claim claim = claims.claim(order.id(), refundKey, money.amount(), money.currency(), newReference(), actor,
                reason);
        if (!claim.owner()) {
            return new Answer(settledOrResolved(claim.refund()), false);
        }
        log.info("refund claimed orderRef={} referenceId={}", order.orderRef(), claim.refund().referenceId());
        Refund claimed = claim.refund();
        return new Answer(createRefund(claimed, CreatePayment.refund(order.orderRef(), claimed.amount(),
                claimed.currency(), claimed.referenceId(), order.pspPaymentId(), claimed.refundKey())), true);
    }

    /** A second charge's full refund: the charge's live refund replays, else this call owns a new one. */
    @Override
    public SecondChargeRefunds.Answer refund(Charge charge, String actor, String reason) {
        Claim claim = claims.claimCharge(charge.orderId(), charge.id(), charge.amount(), charge.currency(),
                "dcr_" + UUID.randomUUID().toString().replace("-", ""), actor, reason);
        Refund refund;
        try {
            if (!claim.owner()) {
                refund = settledOrResolved(claim.refund());
            } else {
                log.info("second charge refund claimed payment={} referenceId={} by {}", charge.pspPaymentId(),
                        claim.refund().referenceId(), actor);
                // what it is sent against is the charge itself: no read of the refund's parent
                Refund claimed = claim.refund();
                refund = createRefund(claimed, CreatePayment.refund(charge.orderRef(), claimed.amount(),
                        claimed.currency(), claimed.referenceId(), charge.pspPaymentId(), claimed.refundKey()));
            }
        } catch (RefundOutcomeUnknown open) {
            throw RefundOutcomeUnknown.ofSecondCharge(claim.refund().referenceId(), properties.retryAfter());
        }
        return new SecondChargeRefunds.Answer(refund.referenceId(), refund.state().name(), refund.pspState(),
                refund.errorCode(), refund.requestedBy(), claim.owner());
    }

    private Refund createRefund(Refund refund, CreatePayment request) {
        PspPayment payment;
        try {
            payment = psp.create(request);
        } catch (PspRejected rejected) {
            applier.reject(refund, rejected.errorCode(), rejected.getMessage());
            return current(refund);
        } catch (PaymentOutcomeUnknown unknown) {
            refunds.markUnknown(refund.id());
            metrics.settled(refund, "unknown");
            log.warn("refund outcome unknown referenceId={}: {}", refund.referenceId(), unknown.getMessage());
            return settledOrResolved(current(refund));
        } catch (RuntimeException | Error unclassified) {
            markUnknownAfter(refund, unclassified);
            throw unclassified;
        }
        try {
            applier.settle(refund, payment);
        } catch (RuntimeException | Error unclassified) {
            markUnknownAfter(refund, unclassified);
            throw unclassified;
        }
        return current(refund);
    }

    /** A settled refund replays; an open one is reconciled first, and only then answers 409. */
    private Refund settledOrResolved(Refund refund) {
        if (!refund.state().isOpen()) {
            return refund;
        }
        resolve(refund);
        Refund now = current(refund);
        if (now.state().isOpen()) {
            throw new RefundOutcomeUnknown(now.referenceId(), properties.retryAfter());
        }
        return now;
    }

    boolean resolve(Refund refund) {
        return resolve(refund, Lease.NONE) == Outcome.RESOLVED;
    }

    /**
     * The refunds' resolve(), shared with the sweep: reconcile the create by our reference (which may send
     * it again, see {@link PaymentProvider#reconcile}) and settle from what is found. Only a refund still
     * ours to resolve (IN_FLIGHT or UNKNOWN) is reconciled; any other (abandoned, settled) is only looked
     * up, so its create is never sent again. A replay refused outright fails the refund as the first call's
     * refusal would have: its reservation released, later refunds no longer blocked. Under a held
     * {@code lease} (the sweep) nothing is written once another instance took the row over.
     */
    @Override
    public Outcome resolve(Refund refund, Lease lease) {
        if (!refund.state().isOpen()) {
            return lookUpAndSettle(refund, lease);
        }
        PaymentProvider.Lookup lookup;
        try {
            // no refund of ours is ever proven absent: an ambiguous refund waits for the truth or an operator
            lookup = psp.reconcile(request(refund));
        } catch (RuntimeException lookupFailed) {
            log.info("refund reconcile referenceId={} inconclusive: {}", refund.referenceId(), lookupFailed.getMessage());
            return Outcome.UNREACHABLE;
        }
        if (lookup.refusal() != null) {
            PspRejected refusal = lookup.refusal();
            return fenced.apply(refunds, lease, () -> {
                applier.reject(refund, refusal.errorCode(), refusal.getMessage());
                log.info("refund reconcile referenceId={}: the replayed create was refused (HTTP {}); FAILED",
                        refund.referenceId(), refusal.status());
                return Outcome.RESOLVED;
            });
        }
        return settleFound(refund, lookup.payments(), lease);
    }

    /** Only reads ({@link PaymentProvider#lookUp}): the refund's create is never sent again from here. */
    private Outcome lookUpAndSettle(Refund refund, Lease lease) {
        List<PspPayment> found;
        try {
            found = psp.lookUp(request(refund));
        } catch (RuntimeException lookupFailed) {
            log.info("refund look-up referenceId={} inconclusive: {}", refund.referenceId(), lookupFailed.getMessage());
            return Outcome.UNREACHABLE;
        }
        return settleFound(refund, found, lease);
    }

    private Outcome settleFound(Refund refund, List<PspPayment> found, Lease lease) {
        if (found.isEmpty()) {
            return Outcome.STILL_UNKNOWN;
        }
        if (found.size() > 1) {
            log.error("psp holds {} refunds for referenceId={}: investigate a double payout", found.size(),
                    refund.referenceId());
        }
        PspPayment payment = found.stream().filter(p -> !p.paymentState().isFailure()).findFirst()
                .orElse(found.get(0));
        return fenced.apply(refunds, lease, () -> {
            applier.settle(refund, payment);
            return Outcome.RESOLVED;
        });
    }

    /**
     * The operator's exit for an UNKNOWN refund: the PSP is asked once more by our reference — a read only,
     * never a replay of the create, which could make the very refund being given up; only if it
     * still knows nothing is the refund closed FAILED (abandoned) and its reservation released, which
     * unblocks the order's later refunds. If the PSP shows it now, it settles by that truth: 409.
     */
    public Refund abandon(String referenceId, String actor, String reason) {
        Refund refund = refunds.findByReference(referenceId).orElseThrow(() -> new Problems.NotFound("Refund"));
        if (refund.state() != RefundState.UNKNOWN) {
            throw new RefundProblems.RefundNotOpen(referenceId, refund.state().name());
        }
        Outcome asked = lookUpAndSettle(refund, Lease.NONE);
        if (asked == Outcome.UNREACHABLE) {
            throw new RefundOutcomeUnknown(referenceId, properties.retryAfter());
        }
        if (asked != Outcome.STILL_UNKNOWN) {
            throw new RefundProblems.RefundNotOpen(referenceId, current(refund).state().name());
        }
        Refund abandoned = applier.abandon(referenceId, actor, reason)
                .orElseThrow(() -> new RefundProblems.RefundNotOpen(referenceId, current(refund).state().name()));
        log.warn("refund referenceId={} abandoned by {} reason={}", referenceId, actor, reason);
        return abandoned;
    }

    /**
     * The straggler poll of a DONE refund whose PSP state is not final: read the REFUND payment now and
     * apply it (a late DECLINED fails it and releases its amount). The PSP still showing the state the claim
     * returned writes nothing, so no transaction is opened for it: applied, it would find the DONE
     * refund past every open state and its PSP state not distinct, and change nothing. Should the row have
     * moved since the claim (a webhook), skipping is the same as this poll having run just before that
     * webhook, and the next poll asks again.
     *
     * @throws PaymentOutcomeUnknown when the PSP cannot be read
     */
    private Outcome pollAccepted(Refund refund) {
        if (refund.pspPaymentId() == null) { // an abandoned refund's watch: a read, never a replay
            return lookUpAndSettle(refund, Lease.NONE);
        }
        java.util.Optional<PspPayment> payment = psp.get(refund.pspPaymentId());
        if (payment.isEmpty() || unchanged(refund, payment.get())) {
            return Outcome.STILL_UNKNOWN;
        }
        return applier.settleAccepted(refund, payment.get()) ? Outcome.RESOLVED : Outcome.STILL_UNKNOWN;
    }

    /** A DONE refund's own payment, at the PSP in the very (not final) state the refund already holds. */
    private static boolean unchanged(Refund refund, PspPayment payment) {
        return refund.state() == RefundState.DONE && refund.pspState() != null
                && refund.pspState().equals(payment.state()) && !payment.paymentState().isFinal()
                && refund.pspPaymentId().equals(payment.id());
    }

    /**
     * The refund's create as it was sent, rebuilt from the stored rows: a reconcile asks about exactly this.
     * What it was sent against comes with a claimed refund (the sweep's claim reads it); otherwise it is read here.
     */
    private CreatePayment request(Refund refund) {
        RefundStore.Parent parent = refund.parent() != null ? refund.parent() : refunds.parentOf(refund.id());
        return CreatePayment.refund(parent.orderRef(), refund.amount(), refund.currency(), refund.referenceId(),
                parent.paymentId(), refund.refundKey());
    }

    private Refund current(Refund refund) {
        return refunds.find(refund.id()).orElseThrow();
    }

    private void markUnknownAfter(Refund refund, Throwable cause) {
        Unclassified.markUnknown(refunds, refund.id(), cause);
        log.error("refund referenceId={} ended unclassified, marked UNKNOWN", refund.referenceId(), cause);
    }

    private static String newReference() {
        return "rfd_" + UUID.randomUUID().toString().replace("-", "");
    }

    /** The refund to show, and whether this call created it (201) or replayed it (200). */
    record Answer(Refund refund, boolean created) {
    }
}
