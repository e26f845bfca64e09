package com.acme.pspsim;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The simulated Stripe account's rules: what a Checkout Session's confirmation does (pay, decline, an
 * async method), capture and cancel of a PaymentIntent, refunds that settle later, expiry; and which
 * events each move sends. HTTP, idempotency and call faults live in {@link StripeSurfaceController}.
 */
@Component
class StripeAccount implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(StripeAccount.class);

    private final StripeBook book;
    private final StripeEventSender events;
    private final StripeSettings settings;
    private final Clock clock;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "pspsim-stripe-timer");
        t.setDaemon(true);
        return t;
    });

    StripeAccount(StripeBook book, StripeEventSender events, StripeSettings settings, Clock clock) {
        this.book = book;
        this.events = events;
        this.settings = settings;
        this.clock = clock;
        long every = settings.expiryCheck().toMillis();
        timer.scheduleWithFixedDelay(this::expireDue, every, every, TimeUnit.MILLISECONDS);
    }

    long now() {
        return clock.instant().getEpochSecond();
    }

    long nowMillis() {
        return clock.millis();
    }

    /** A pending announcement: built under the lock, sent after it. */
    private record Out(String type, Map<String, Object> object, String lane, Set<String> subjects, Long amount) {
    }

    private Out out(String type, StripeSession s, Map<String, Object> object, Long amount, String... more) {
        Set<String> subjects = new LinkedHashSet<>();
        subjects.add(s.id);
        if (s.clientReferenceId != null) {
            subjects.add(s.clientReferenceId);
        }
        if (s.paymentIntent != null) {
            subjects.add(s.paymentIntent);
        }
        subjects.addAll(s.metadata.values());
        for (String m : more) {
            if (m != null) {
                subjects.add(m);
            }
        }
        return new Out(type, object, s.id, subjects, amount);
    }

    private void send(List<Out> outs) {
        outs.forEach(o -> events.emit(o.type, o.object, o.lane, o.subjects, o.amount));
    }

    /** Creates an open session; {@code pageBase} + {@code /stripe/pay/<id>} is its hosted page. */
    StripeSession createSession(StripeSessionRequest r, String pageBase, long hiddenForMs) {
        String id = StripeIds.next("cs_test_", 58);
        StripeSession s = new StripeSession(book.nextSeq(), id, now(), r.expiresAt(), r.currency(), r.amountTotal(),
                r.lineItems(), r.clientReferenceId(), r.customerEmail(), r.metadata(), r.intentMetadata(),
                r.intentDescription(), r.captureMethod(), r.successUrl(), r.cancelUrl(), pageBase + "/stripe/pay/" + id,
                hiddenForMs <= 0 ? 0 : clock.millis() + hiddenForMs);
        book.add(s);
        log.info("stripe session={} created client_reference_id={} amount_total={} {}", s.id, s.clientReferenceId,
                s.amountTotal, s.currency);
        return s;
    }

    /** The customer confirms on the hosted page (or a test does): {@code pay}, {@code decline} or {@code async}. */
    StripeSession confirm(String sessionId, String action) {
        List<Out> outs = new ArrayList<>();
        StripeSession done = book.locked(b -> {
            StripeSession s = b.session(sessionId).orElseThrow(() -> StripeError.noSuch("checkout.session", "session", sessionId));
            if (!s.open()) {
                throw StripeError.invalid(null, "This Checkout Session is no longer active (status " + s.status + ").");
            }
            StripeIntent pi = s.paymentIntent == null ? null : b.intent(s.paymentIntent).orElseThrow();
            if (pi == null) { // created on confirmation since 2022-08-01
                pi = new StripeIntent(StripeIds.next("pi_"), s.id, now(), s.amountTotal, s.currency, s.captureMethod,
                        s.intentMetadata, s.intentDescription, s.customerEmail);
                b.add(pi);
                s.paymentIntent = pi.id;
            }
            pi.paymentMethod = StripeIds.next("pm_");
            pi.lastPaymentError = null;
            switch (action) {
                case "pay" -> {
                    authorizeOrCharge(pi);
                    s.status = "complete";
                    s.paymentStatus = "succeeded".equals(pi.status) ? "paid" : "unpaid";
                    outs.add(out(intentEvent(pi), s, pi.view(), pi.amount));
                    outs.add(out("checkout.session.completed", s, s.view(), s.amountTotal));
                }
                case "async" -> {
                    pi.status = "processing";
                    s.status = "complete";
                    s.paymentStatus = "unpaid";
                    outs.add(out("checkout.session.completed", s, s.view(), s.amountTotal));
                }
                case "decline" -> {
                    decline(pi);
                    outs.add(out("payment_intent.payment_failed", s, pi.view(), pi.amount));
                }
                default -> throw StripeError.invalid("action", "Unknown action: " + action);
            }
            log.info("stripe session={} {} → status={} payment_status={} intent={} {}", s.id, action, s.status,
                    s.paymentStatus, pi.id, pi.status);
            return s;
        });
        send(outs);
        return done;
    }

    /** The async payment method's outcome arrives: the session's payment succeeds or fails. */
    StripeSession settleAsync(String sessionId, boolean succeeded) {
        List<Out> outs = new ArrayList<>();
        StripeSession done = book.locked(b -> {
            StripeSession s = b.session(sessionId).orElseThrow(() -> StripeError.noSuch("checkout.session", "session", sessionId));
            StripeIntent pi = s.paymentIntent == null ? null : b.intent(s.paymentIntent).orElse(null);
            if (pi == null || !"processing".equals(pi.status)) {
                throw StripeError.invalid(null, "This Checkout Session has no async payment processing.");
            }
            if (succeeded) {
                authorizeOrCharge(pi);
                s.paymentStatus = "succeeded".equals(pi.status) ? "paid" : "unpaid";
                outs.add(out(intentEvent(pi), s, pi.view(), pi.amount));
                outs.add(out("checkout.session.async_payment_succeeded", s, s.view(), s.amountTotal));
            } else {
                decline(pi);
                outs.add(out("payment_intent.payment_failed", s, pi.view(), pi.amount));
                outs.add(out("checkout.session.async_payment_failed", s, s.view(), s.amountTotal));
            }
            return s;
        });
        send(outs);
        return done;
    }

    private void authorizeOrCharge(StripeIntent pi) {
        pi.chargeId = pi.chargeId != null ? pi.chargeId : StripeIds.next("ch_");
        pi.chargeCreated = now();
        if ("manual".equals(pi.captureMethod)) {
            pi.status = "requires_capture";
            pi.amountCapturable = pi.amount;
        } else {
            pi.status = "succeeded";
            pi.amountReceived = pi.amount;
        }
    }

    private static String intentEvent(StripeIntent pi) {
        return "requires_capture".equals(pi.status) ? "payment_intent.amount_capturable_updated"
                : "payment_intent.succeeded";
    }

    private static void decline(StripeIntent pi) {
        pi.status = "requires_payment_method";
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", "card_declined");
        error.put("decline_code", "generic_decline");
        error.put("doc_url", "https://stripe.com/docs/error-codes/card-declined");
        error.put("message", "Your card was declined.");
        error.put("type", "card_error");
        pi.lastPaymentError = error;
    }

    /** An open session expires (its {@code expires_at} passed, the expire call, or the admin API). */
    StripeSession expire(String sessionId) {
        List<Out> outs = new ArrayList<>();
        StripeSession done = book.locked(b -> {
            StripeSession s = b.session(sessionId).orElseThrow(() -> StripeError.noSuch("checkout.session", "session", sessionId));
            if (!s.open()) {
                throw StripeError.invalid(null, "Only Checkout Sessions with a status in [\"open\"] can be expired. "
                        + "This Checkout Session has a status of \"" + s.status + "\".");
            }
            s.status = "expired";
            outs.add(out("checkout.session.expired", s, s.view(), s.amountTotal));
            log.info("stripe session={} expired", s.id);
            return s;
        });
        send(outs);
        return done;
    }

    void expireDue() {
        long now = now();
        for (StripeSession s : book.sessions(x -> x.open() && x.expiresAt <= now)) {
            try {
                expire(s.id);
            } catch (StripeError raced) {
                // paid or expired meanwhile
            }
        }
    }

    StripeIntent capture(String intentId, Long amountToCapture) {
        List<Out> outs = new ArrayList<>();
        StripeIntent done = book.locked(b -> {
            StripeIntent pi = b.intent(intentId).orElseThrow(() -> StripeError.noSuch("payment_intent", "intent", intentId));
            if (!"requires_capture".equals(pi.status)) {
                throw StripeError.unexpectedState("This PaymentIntent could not be captured because it has a status of "
                        + pi.status + ". Only a PaymentIntent with one of the following statuses may be captured: "
                        + "requires_capture.");
            }
            long amount = amountToCapture == null ? pi.amountCapturable : amountToCapture;
            if (amount <= 0 || amount > pi.amountCapturable) {
                throw new StripeError(org.springframework.http.HttpStatus.BAD_REQUEST, "invalid_request_error",
                        "amount_too_large", "amount_to_capture", "The amount_to_capture must be a positive integer "
                                + "no greater than the amount_capturable (" + pi.amountCapturable + ").");
            }
            pi.status = "succeeded";
            pi.amountReceived = amount;
            pi.amountCapturable = 0;
            StripeSession s = b.session(pi.sessionId).orElseThrow();
            s.paymentStatus = "paid";
            outs.add(out("payment_intent.succeeded", s, pi.view(), amount));
            log.info("stripe intent={} captured {}", pi.id, amount);
            return pi;
        });
        send(outs);
        return done;
    }

    StripeIntent cancel(String intentId, String reason) {
        List<Out> outs = new ArrayList<>();
        StripeIntent done = book.locked(b -> {
            StripeIntent pi = b.intent(intentId).orElseThrow(() -> StripeError.noSuch("payment_intent", "intent", intentId));
            if (!Set.of("requires_payment_method", "requires_capture", "requires_confirmation", "requires_action")
                    .contains(pi.status)) {
                throw StripeError.unexpectedState("You cannot cancel this PaymentIntent because it has a status of "
                        + pi.status + ". Only a PaymentIntent with one of the following statuses may be canceled: "
                        + "requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.");
            }
            StripeSession s = b.session(pi.sessionId).orElseThrow();
            if (s.open()) { // the reference: a session's PaymentIntent is not canceled, the session is expired
                throw StripeError.invalid(null, "This PaymentIntent belongs to an open Checkout Session; expire the "
                        + "Checkout Session instead.");
            }
            pi.status = "canceled";
            pi.canceledAt = now();
            pi.cancellationReason = reason;
            pi.amountCapturable = 0;
            outs.add(out("payment_intent.canceled", s, pi.view(), pi.amount));
            log.info("stripe intent={} canceled", pi.id);
            return pi;
        });
        send(outs);
        return done;
    }

    /** A refund of a succeeded PaymentIntent: created {@code pending}, settled after {@code refund-settle-delay}. */
    StripeRefund refund(String intentId, Long amount, Map<String, String> metadata, String reason,
            String idempotencyKey) {
        List<Out> outs = new ArrayList<>();
        StripeRefund done = book.locked(b -> {
            StripeIntent pi = b.intent(intentId).orElseThrow(() -> StripeError.noSuch("payment_intent", "payment_intent", intentId));
            if (!"succeeded".equals(pi.status)) {
                throw StripeError.invalid("payment_intent", "This PaymentIntent (" + pi.id + ") does not have a "
                        + "successful charge to refund.");
            }
            long held = b.refundsOf(pi.id).stream().filter(StripeRefund::holdsAmount).mapToLong(r -> r.amount).sum();
            long left = pi.amountReceived - held;
            long value = amount == null ? left : amount;
            if (value <= 0 || value > left) {
                throw new StripeError(org.springframework.http.HttpStatus.BAD_REQUEST, "invalid_request_error",
                        value <= 0 ? "parameter_invalid_integer" : "amount_too_large", "amount",
                        value <= 0 ? "This value must be greater than or equal to 1."
                                : "Refund amount (" + value + ") is greater than unrefunded amount on charge (" + left + ")");
            }
            StripeRefund r = new StripeRefund(StripeIds.next("re_"), pi.id, pi.chargeId, now(), value, pi.currency,
                    metadata, reason);
            b.add(r);
            pi.amountRefunded = held + value;
            StripeSession s = b.session(pi.sessionId).orElseThrow();
            outs.add(out("refund.created", s, r.view(), value, r.id, metadata.get("referenceId"), idempotencyKey));
            outs.add(out("charge.refunded", s, pi.chargeView(), value, r.id, pi.chargeId));
            log.info("stripe refund={} of intent={} amount={} pending", r.id, pi.id, value);
            return r;
        });
        send(outs);
        if (!settings.refundPendingAmounts().contains(done.amount)) {
            String status = settings.refundFailAmounts().contains(done.amount) ? "failed" : "succeeded";
            timer.schedule(() -> {
                try {
                    settleRefund(done.id, status, null);
                } catch (StripeError alreadySettled) {
                    // the admin API was first
                }
            }, settings.refundSettleDelay().toMillis(), TimeUnit.MILLISECONDS);
        }
        return done;
    }

    /** A pending refund's late truth: {@code succeeded}, or {@code failed} (two events), or {@code canceled}. */
    StripeRefund settleRefund(String refundId, String status, String failureReason) {
        if (!Set.of("succeeded", "failed", "canceled").contains(status)) {
            throw StripeError.invalid("status", "status must be succeeded, failed or canceled");
        }
        return moveRefund(refundId, status, failureReason, Set.of("pending", "requires_action"));
    }

    /**
     * A refund fails after all, pending or already {@code succeeded} (Stripe's refunds can: the card was
     * closed): {@code refund.updated} and {@code refund.failed}, its amount refundable again.
     */
    StripeRefund failRefund(String refundId, String failureReason) {
        return moveRefund(refundId, "failed", failureReason, Set.of("pending", "requires_action", "succeeded"));
    }

    private StripeRefund moveRefund(String refundId, String status, String failureReason, Set<String> from) {
        List<Out> outs = new ArrayList<>();
        StripeRefund done = book.locked(b -> {
            StripeRefund r = b.refund(refundId).orElseThrow(() -> StripeError.noSuch("refund", "refund", refundId));
            if (!from.contains(r.status)) {
                throw StripeError.invalid(null, "This refund has already settled (status " + r.status + ").");
            }
            r.status = status;
            StripeIntent pi = b.intent(r.paymentIntent).orElseThrow();
            if ("failed".equals(status)) { // no longer holdsAmount(): refundable again
                r.failureReason = failureReason != null ? failureReason : settings.refundFailureReason();
            }
            StripeSession s = b.session(pi.sessionId).orElseThrow();
            outs.add(out("refund.updated", s, r.view(), r.amount, r.id, r.metadata.get("referenceId")));
            if ("failed".equals(status)) {
                outs.add(out("refund.failed", s, r.view(), r.amount, r.id, r.metadata.get("referenceId")));
            }
            log.info("stripe refund={} {}", r.id, status);
            return r;
        });
        send(outs);
        return done;
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
    }
}
