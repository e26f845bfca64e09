package com.acme.payments.checkout;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import com.acme.payments.checkout.AttemptStore.Claim;
import com.acme.payments.checkout.CheckoutProblems.CheckoutDeclined;
import com.acme.payments.checkout.CheckoutProblems.CheckoutInProgress;
import com.acme.payments.checkout.CheckoutProblems.OrderNotPayable;
import com.acme.payments.checkout.CheckoutProblems.PaymentOutcomeUnknownProblem;
import com.acme.payments.checkout.CheckoutProblems.PspRejectedProblem;
import com.acme.payments.common.web.Problems;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStatus;
import com.acme.payments.order.OrderStore;
import com.acme.payments.order.PaymentTransition;
import com.acme.payments.psp.CreatePayment;
import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PaymentUpdateHandler.Applied;
import com.acme.payments.psp.PaymentProvider;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.PspRejected;
import com.acme.payments.secondcharge.DuplicateChargeProperties;

/**
 * The checkout flow. Deliberately NOT transactional: it calls the PSP, and no transaction or pooled
 * connection may be held across a network call. Each step is a separate committed store call:
 * claim (commit) → POST → settle. An answer we cannot classify leaves the attempt UNKNOWN, to be
 * resolved by its stored reference — never by a second POST.
 */
@Component
public class CheckoutOrchestrator implements Resolver<Attempt>, Poller {

    private static final Logger log = LoggerFactory.getLogger(CheckoutOrchestrator.class);

    private final AttemptStore attempts;
    private final AttemptClaimApplier claims;
    private final DepositApplier applier;
    private final PaymentProvider psp;
    private final CheckoutProperties properties;
    private final CheckoutMetrics metrics;
    private final FencedApplier fenced;
    private final OrderStore orders;
    private final DuplicateChargeProperties duplicates;

    CheckoutOrchestrator(AttemptStore attempts, AttemptClaimApplier claims, DepositApplier applier, PaymentProvider psp,
            CheckoutProperties properties, CheckoutMetrics metrics, FencedApplier fenced, OrderStore orders,
            DuplicateChargeProperties duplicates) {
        this.attempts = attempts;
        this.claims = claims;
        this.applier = applier;
        this.psp = psp;
        this.properties = properties;
        this.metrics = metrics;
        this.fenced = fenced;
        this.orders = orders;
        this.duplicates = duplicates;
    }

    /** Checkout attempts; capture/void operations share their group, so one PSP outage pauses both. */
    @Override
    public SweepJob<Attempt> job() {
        return new SweepJob<>("checkout-sweep", "checkout", attempts, new SweepJob.Gauge("checkout",
                "Checkout attempts in UNKNOWN", "Age of the oldest UNKNOWN checkout attempt"));
    }

    Attempt checkout(Order order, String returnUrl) {
        if (order.status() == OrderStatus.PAID || order.status() == OrderStatus.AUTHORIZED) {
            throw new OrderNotPayable(order.orderRef(), order.status().name());
        }
        String reference = newReference();
        // the provider fixes its parameters (a Stripe session's expires_at) before the claim stores them
        String fixed = psp.fixRequest(CreatePayment.deposit(order.orderRef(), order.amount(), order.currency(),
                reference, returnUrl, customer(order)));
        Claim claim = claims.claim(order.id(), order.amount(), order.currency(), returnUrl, reference, fixed);
        if (!claim.owner()) {
            metrics.checkout("joined");
            return answerForOpen(claim.attempt());
        }
        log.info("checkout attempt claimed orderRef={} referenceId={}", order.orderRef(), claim.attempt().referenceId());
        return createPayment(order, claim.attempt());
    }

    /** The owner's call. The catch-all makes sure IN_FLIGHT never outlives this method unexplained. */
    private Attempt createPayment(Order order, Attempt attempt) {
        PspPayment payment;
        try {
            payment = psp.create(request(attempt, order));
        } catch (PspRejected rejected) {
            attempts.markFailed(attempt.id(), AttemptStore.FailureReason.REJECTED, null, rejected.errorCode(),
                    rejected.getMessage());
            metrics.checkout("rejected");
            log.info("checkout rejected by psp referenceId={} status={}", attempt.referenceId(), rejected.status());
            throw new PspRejectedProblem(attempt.referenceId(), rejected.errorCode());
        } catch (PaymentOutcomeUnknown unknown) {
            attempts.markUnknown(attempt.id());
            metrics.checkout("unknown");
            log.warn("checkout outcome unknown referenceId={}: {}", attempt.referenceId(), unknown.getMessage());
            return answerForOpen(attempts.find(attempt.id()).orElseThrow());
        } catch (RuntimeException | Error unclassified) {
            markUnknownAfter(attempt, unclassified);
            throw unclassified;
        }
        Attempt settled;
        try {
            settled = applier.applyAnswer(attempt, payment);
        } catch (RuntimeException | Error unclassified) {
            markUnknownAfter(attempt, unclassified);
            throw unclassified;
        }
        metrics.checkout(settled.state() == AttemptState.FAILED ? "declined" : "created");
        return answerForSettled(settled);
    }

    /**
     * Someone else's open attempt, or ours gone UNKNOWN: replay a stored result, or reconcile by the
     * stored reference before answering 409.
     */
    private Attempt answerForOpen(Attempt attempt) {
        if (attempt.state() == AttemptState.READY || attempt.state() == AttemptState.FAILED) {
            return answerForSettled(attempt);
        }
        if (resolve(attempt, Lease.NONE) != Outcome.RESOLVED) {
            Attempt current = attempts.find(attempt.id()).orElseThrow();
            if (current.state() == AttemptState.IN_FLIGHT) {
                throw new CheckoutInProgress(current.referenceId(), properties.retryAfter());
            }
            if (current.state() == AttemptState.UNKNOWN) {
                throw new PaymentOutcomeUnknownProblem(current.referenceId(), properties.retryAfter());
            }
            return answerForSettled(current);
        }
        return answerForSettled(attempts.find(attempt.id()).orElseThrow());
    }

    private Attempt answerForSettled(Attempt attempt) {
        if (attempt.state() == AttemptState.FAILED) {
            if (AttemptStore.FailureReason.REJECTED.column().equals(attempt.failureReason())) {
                // refused outright, here by a replay of the create: answered as the first call's refusal
                throw new PspRejectedProblem(attempt.referenceId(), attempt.errorCode());
            }
            throw new CheckoutDeclined(attempt.referenceId(), attempt.errorCode());
        }
        return attempt;
    }

    /**
     * The one resolve() of the request path and the sweeps: reconcile the create by our stored reference
     * (which may send it again, see {@link PaymentProvider#reconcile}) and apply what the PSP says. Only an
     * attempt still ours to resolve (IN_FLIGHT or UNKNOWN) is reconciled; any other is only looked up, so a
     * settled or abandoned attempt's create is never sent again. A replay refused outright fails the
     * attempt as the first call's refusal would have (the order payable again). Nothing found, or the
     * look-up itself failing, leaves the attempt as it is. Under a held {@code lease} (the sweep) nothing
     * is written once another instance claimed the row.
     */
    @Override
    public Outcome resolve(Attempt attempt, Lease lease) {
        if (!isOpen(attempt)) {
            return lookUpAndApply(attempt, lease);
        }
        PaymentProvider.Lookup lookup;
        try {
            lookup = psp.reconcile(request(attempt));
        } catch (RuntimeException lookupFailed) {
            log.info("reconcile of referenceId={} inconclusive: {}", attempt.referenceId(), lookupFailed.getMessage());
            return Outcome.UNREACHABLE;
        }
        if (lookup.refusal() != null) {
            PspRejected refusal = lookup.refusal();
            return fenced.apply(attempts, lease, () -> {
                attempts.markFailed(attempt.id(), AttemptStore.FailureReason.REJECTED, null, refusal.errorCode(),
                        refusal.getMessage());
                log.info("reconcile of referenceId={}: the replayed create was refused (HTTP {}); attempt FAILED",
                        attempt.referenceId(), refusal.status());
                return Outcome.RESOLVED;
            });
        }
        if (lookup.provenAbsent()) {
            // the provider proves no payment exists for the reference: the attempt closes and frees the order
            return fenced.apply(attempts, lease, () -> {
                attempts.markFailed(attempt.id(), AttemptStore.FailureReason.NOT_CREATED, null, "not_created",
                        "the provider holds no payment for this attempt");
                log.info("reconcile of referenceId={}: the provider proves nothing was created; attempt FAILED",
                        attempt.referenceId());
                return Outcome.RESOLVED;
            });
        }
        return applyFound(attempt, lookup.payments(), lease);
    }

    /** Only reads ({@link PaymentProvider#lookUp}): the attempt's create is never sent again from here. */
    private Outcome lookUpAndApply(Attempt attempt, Lease lease) {
        List<PspPayment> found;
        try {
            found = psp.lookUp(request(attempt));
        } catch (RuntimeException lookupFailed) {
            log.info("look-up of referenceId={} inconclusive: {}", attempt.referenceId(), lookupFailed.getMessage());
            return Outcome.UNREACHABLE;
        }
        return applyFound(attempt, found, lease);
    }

    private Outcome applyFound(Attempt attempt, List<PspPayment> found, Lease lease) {
        if (found.isEmpty()) {
            return Outcome.STILL_UNKNOWN;
        }
        if (found.size() > 1) {
            log.error("psp holds {} payments for referenceId={}: investigate a double charge", found.size(),
                    attempt.referenceId());
        }
        PspPayment payment = found.stream().max(Comparator.comparingInt(CheckoutOrchestrator::rank)).orElseThrow();
        return fenced.apply(attempts, lease, () -> {
            applier.apply(attempt, payment);
            return Outcome.RESOLVED;
        });
    }

    /** Still ours to resolve: the owner's call may be under way or its outcome is unknown. */
    private static boolean isOpen(Attempt attempt) {
        return attempt.state() == AttemptState.IN_FLIGHT || attempt.state() == AttemptState.UNKNOWN;
    }

    /**
     * The create as it was sent, rebuilt from the stored attempt: a reconcile asks about exactly this. The
     * order's part comes with a claimed attempt (the sweep's claim reads it); otherwise it is read here.
     */
    private CreatePayment request(Attempt attempt) {
        Attempt.Payer payer = attempt.payer();
        if (payer != null) {
            return CreatePayment.deposit(payer.orderRef(), attempt.amount(), attempt.currency(), attempt.referenceId(),
                    attempt.returnUrl(), new CreatePayment.Customer(payer.customerRef(), payer.customerEmail()))
                    .withFixedRequest(attempt.pspRequest());
        }
        Order order = orders.findById(attempt.orderId()).orElseThrow();
        return request(attempt, order);
    }

    private static CreatePayment request(Attempt attempt, Order order) {
        return CreatePayment.deposit(order.orderRef(), attempt.amount(), attempt.currency(), attempt.referenceId(),
                attempt.returnUrl(), customer(order)).withFixedRequest(attempt.pspRequest());
    }

    private static CreatePayment.Customer customer(Order order) {
        return new CreatePayment.Customer(order.customerRef(), order.customerEmail());
    }

    /**
     * The operator's exit for an UNKNOWN attempt: the PSP is asked once more by our reference — a read
     * only, never a replay of the create, which could make the very payment being given up; only if it
     * still knows nothing is the attempt closed FAILED (abandoned), freeing the order. If the payment
     * shows up now, the attempt settles by that truth and the answer is 409 attempt-not-open.
     */
    public Attempt abandon(String referenceId, String actor, String reason) {
        Attempt attempt = attempts.findByReference(referenceId).orElseThrow(() -> new Problems.NotFound("Attempt"));
        if (attempt.state() != AttemptState.UNKNOWN) {
            throw new CheckoutProblems.AttemptNotOpen(referenceId, attempt.state().name());
        }
        Outcome asked = lookUpAndApply(attempt, Lease.NONE);
        if (asked == Outcome.UNREACHABLE) {
            throw new PaymentOutcomeUnknownProblem(referenceId, properties.retryAfter());
        }
        if (asked != Outcome.STILL_UNKNOWN || !attempts.abandon(referenceId, actor, reason)) {
            Attempt now = attempts.findByReference(referenceId).orElseThrow();
            throw new CheckoutProblems.AttemptNotOpen(referenceId, now.state().name());
        }
        return attempts.findByReference(referenceId).orElseThrow();
    }

    /**
     * The abandoned-attempt watch: the PSP is asked again by the abandoned attempt's reference, and every
     * payment it shows is applied like any late truth (the order never moves for it; a COMPLETED one is a
     * second charge, flagged once). The webhook may never come, so this is how such a payment is learnt.
     * The watch ends once every payment shown is final; nothing shown, or one still open, is asked again.
     */
    private Outcome watchAbandoned(Attempt attempt) {
        List<PspPayment> found;
        try {
            found = psp.lookUp(request(attempt));
        } catch (RuntimeException lookupFailed) {
            log.info("abandoned-attempt watch of referenceId={} inconclusive: {}", attempt.referenceId(),
                    lookupFailed.getMessage());
            return Outcome.UNREACHABLE;
        }
        if (found.isEmpty()) {
            return Outcome.STILL_UNKNOWN;
        }
        found.forEach(payment -> applier.apply(attempt, payment));
        if (found.stream().allMatch(p -> p.paymentState().isFinal())) {
            attempts.closeWatch(attempt.id());
            log.info("abandoned attempt referenceId={}: the PSP shows {} payment(s), final; watch closed",
                    attempt.referenceId(), found.size());
            return Outcome.RESOLVED;
        }
        return Outcome.STILL_UNKNOWN;
    }

    /**
     * Polling is the second path: orders whose webhook never came (PROCESSING or AUTHORIZED past the grace
     * period) are read from the PSP and moved by the same conditional transition as a webhook. And the
     * abandoned-attempt watch ({@link #watchAbandoned}): for {@code payments.duplicates.abandoned-watch}
     * after the abandon, each abandoned attempt is claimed when due (gaps from {@code last_polled_at}
     * growing from {@code payments.stragglers.grace} to a day with its age) and the PSP asked by its reference.
     */
    @Override
    public List<PollJob<?>> polls() {
        return List.of(
                new PollJob<Straggler>("straggler-poll",
                        schedule -> stragglers(orders.claimStragglers(schedule.grace(), schedule.batchSize())),
                        this::pollStraggler),
                new PollJob<Attempt>("abandoned-watch", schedule -> attempts.claimAbandoned(duplicates.abandonedWatch(),
                        schedule.grace(), schedule.batchSize()), this::watchAbandoned));
    }

    /**
     * A claimed order with its latest attempt (null when it has none), read for the whole batch at once: a
     * poll's ask needs no read of its own. Its writes stay as safe as before: every one is conditional in its
     * UPDATE (the newest attempt wins there, not in this read).
     */
    private record Straggler(Order order, Attempt attempt) {
        @Override
        public String toString() { // the order holds the customer's email: never in a log line
            return "Straggler[orderRef=" + order.orderRef() + ", attempt=" + attempt + "]";
        }
    }

    private List<Straggler> stragglers(List<Order> claimed) {
        Map<Long, Attempt> latest = attempts.latestForOrders(claimed.stream().map(Order::id).toList());
        return claimed.stream().map(order -> new Straggler(order, Optional.ofNullable(latest.get(order.id()))
                .map(attempt -> attempt.withPayer(new Attempt.Payer(order.orderRef(), order.customerRef(),
                        order.customerEmail())))
                .orElse(null))).toList();
    }

    /**
     * RESOLVED when the order moved. With the payment's id (the usual case) the apply says so; by reference
     * (no id yet) the order is read again after the ask, as it always was.
     */
    private Outcome pollStraggler(Straggler straggler) {
        Attempt attempt = straggler.attempt();
        if (attempt == null) {
            return Outcome.STILL_UNKNOWN;
        }
        if (attempt.pspPaymentId() == null) {
            if (attempt.state() == AttemptState.FAILED) {
                return Outcome.STILL_UNKNOWN;
            }
            if (resolve(attempt, Lease.NONE) == Outcome.UNREACHABLE) {
                return Outcome.UNREACHABLE;
            }
            OrderStatus now = orders.findById(attempt.orderId()).orElseThrow().status();
            return now != straggler.order().status() ? Outcome.RESOLVED : Outcome.STILL_UNKNOWN;
        }
        Optional<PspPayment> payment;
        try {
            payment = psp.get(attempt.pspPaymentId());
        } catch (PaymentOutcomeUnknown unreachable) {
            return Outcome.UNREACHABLE;
        }
        if (payment.isEmpty() || nothingToWrite(straggler, payment.get())) {
            return Outcome.STILL_UNKNOWN;
        }
        return applier.apply(attempt, payment.get()) == Applied.APPLIED ? Outcome.RESOLVED : Outcome.STILL_UNKNOWN;
    }

    /**
     * The PSP still shows the attempt's own payment under way, as the order already has it (an order that
     * stays PROCESSING or AUTHORIZED, asked about every grace period): applied, the attempt's promote would
     * change nothing (READY, this payment's id, no new redirect) and the order's move could not match (its
     * status is not one the move leaves, and no order returns to one while this attempt is its newest), so no
     * transaction is opened. Should either have moved since the claim, skipping is the same as this
     * poll having run just before, and the next one asks again.
     */
    private static boolean nothingToWrite(Straggler straggler, PspPayment payment) {
        Attempt attempt = straggler.attempt();
        PaymentTransition move = payment.paymentState().orderMove();
        return (move == PaymentTransition.TO_PROCESSING || move == PaymentTransition.TO_AUTHORIZED)
                && !move.fromNames().contains(straggler.order().status().name())
                && attempt.state() == AttemptState.READY && attempt.pspPaymentId().equals(payment.id())
                && (payment.redirectUrl() == null || payment.redirectUrl().equals(attempt.redirectUrl()));
    }

    /** On the customer's return: read the payment's current state and apply it. The browser proves nothing. */
    void pollOnReturn(Order order) {
        try {
            pollPsp(order);
        } catch (PaymentOutcomeUnknown unreachable) {
            log.info("return poll for orderRef={} inconclusive: {}", order.orderRef(), unreachable.getMessage());
        }
    }

    /**
     * Reads the order's latest payment from the PSP (by id when known, else by our reference) and
     * applies it, on the customer's return.
     *
     * @throws PaymentOutcomeUnknown when the PSP cannot be read
     */
    private void pollPsp(Order order) {
        Attempt attempt = attempts.latestForOrder(order.id()).orElse(null);
        if (attempt == null) {
            return;
        }
        if (attempt.pspPaymentId() == null) {
            if (attempt.state() != AttemptState.FAILED && resolve(attempt, Lease.NONE) == Outcome.UNREACHABLE) {
                throw new PaymentOutcomeUnknown("reference look-up failed for " + attempt.referenceId());
            }
            return;
        }
        psp.get(attempt.pspPaymentId()).ifPresent(payment -> applier.apply(attempt, payment));
    }

    private void markUnknownAfter(Attempt attempt, Throwable cause) {
        Unclassified.markUnknown(attempts, attempt.id(), cause);
        metrics.checkout("unknown");
        log.error("checkout referenceId={} ended unclassified, marked UNKNOWN", attempt.referenceId(), cause);
    }

    /** Completed beats authorized beats pending beats failed, when the PSP (wrongly) holds several. */
    private static int rank(PspPayment payment) {
        PaymentState state = payment.paymentState();
        if (state == PaymentState.COMPLETED) {
            return 3;
        }
        if (state == PaymentState.AUTHORIZED) {
            return 2;
        }
        return state.isFailure() ? 0 : 1;
    }

    private static String newReference() {
        return "chk_" + UUID.randomUUID().toString().replace("-", "");
    }
}
