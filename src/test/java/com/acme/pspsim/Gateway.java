package com.acme.pspsim;

import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * The provider's rules: what a create makes, which moves a payment may take (hosted page, capture,
 * void), and which of them announce themselves by webhook. HTTP and answer faults live in the
 * controllers; the faults that change what happens (decline, settle, invisibility, early webhook)
 * are applied here.
 */
@Component
class Gateway {

    private static final Logger log = LoggerFactory.getLogger(Gateway.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final PaymentBook payments;
    private final WebhookSender webhooks;
    private final SimulatorProperties properties;
    private final Clock clock;
    private final Object refundLock = new Object();

    Gateway(PaymentBook payments, WebhookSender webhooks, SimulatorProperties properties, Clock clock) {
        this.payments = payments;
        this.webhooks = webhooks;
        this.properties = properties;
        this.clock = clock;
    }

    /** Creates a payment; {@code baseUrl} is the fallback for the hosted page's address. */
    Payment create(CreateRequest request, CallPlan plan, String baseUrl) {
        Payment created;
        if (Payment.REFUND.equals(request.paymentType())) {
            synchronized (refundLock) { // the remainder check and the insert are one step
                checkRefundable(request);
                created = store(request, plan, baseUrl);
            }
        } else {
            created = store(request, plan, baseUrl);
        }
        log.info("created paymentId={} referenceId={} type={} state={} amount={} {}", created.id(),
                created.referenceId(), created.paymentType(), created.state(), created.amount(), created.currency());
        FaultRule early = plan.first(Fault.WEBHOOK_BEFORE_RESPONSE).orElse(null);
        if (early != null && Payment.CHECKOUT.equals(created.state())) {
            String target = early.state() == null ? Payment.COMPLETED : early.state();
            payments.transition(created.id(), Payment.CHECKOUT, p -> decorate(p.withState(target, clock.instant())))
                    .ifPresent(moved -> webhooks.announce(moved, true));
        } else if (!Payment.CHECKOUT.equals(created.state())) {
            webhooks.announce(created, early != null);
        }
        return created;
    }

    /**
     * A refund made in the provider's back office, not by the merchant: a REFUND of {@code parentId} under a
     * reference the merchant never sent, announced to the parent's webhook URL like any payment. The
     * remainder rule holds; {@code amount} null refunds what is left; {@code state} (e.g. PENDING, to fail it
     * later) replaces the COMPLETED it is made in.
     */
    Payment backOfficeRefund(String parentId, BigDecimal amount, String referenceId, String state) {
        Payment parent = payments.get(parentId).orElseThrow(() -> GatewayError.notFound(parentId));
        BigDecimal value = amount != null ? amount : parent.amount().subtract(refunded(parent));
        String reference = referenceId != null ? referenceId : "back-office-" + HexFormat.of().formatHex(randomBytes());
        return create(new CreateRequest(Payment.REFUND, value, parent.currency(), reference, null, parent.webhookUrl(),
                parentId, null, null), state == null ? CallPlan.NONE
                        : new CallPlan(new FaultRule("create", "settle", null, null, null, null, null, null, state, null,
                                null, null)), null);
    }

    /** A payment made past the merchant's integration: stored in {@code state}, announced to nobody. */
    Payment unseen(String type, String state, BigDecimal amount, String currency, String referenceId, String parentId) {
        String reference = referenceId != null ? referenceId : "unseen-" + HexFormat.of().formatHex(randomBytes());
        Payment stored = store(new CreateRequest(type, amount, currency, reference, null, null, parentId, null, null),
                new CallPlan(new FaultRule("create", "settle", null, null, null, null, null, null, state, null, null,
                        null)), null);
        log.info("unseen paymentId={} type={} state={} amount={} {}", stored.id(), type, stored.state(), amount, currency);
        return stored;
    }

    /** A click on the hosted page: CHECKOUT moves to {@code target}, announced by webhook. */
    Payment settleFromHostedPage(String id, String target) {
        Payment current = payments.get(id).orElseThrow(() -> GatewayError.notFound(id));
        Payment moved = payments.transition(id, Payment.CHECKOUT, p -> decorate(p.withState(target, clock.instant())))
                .orElseThrow(() -> invalidState(current, "this page has already been used"));
        log.info("hosted page paymentId={} referenceId={} state={}", moved.id(), moved.referenceId(), moved.state());
        webhooks.announce(moved, false);
        return moved;
    }

    Payment capture(Payment current, BigDecimal amount) {
        BigDecimal captured = amount == null ? current.amount() : amount;
        if (captured.signum() <= 0) {
            throw GatewayError.invalid("amount must be positive");
        }
        if (captured.compareTo(current.amount()) > 0) {
            throw new GatewayError(HttpStatus.UNPROCESSABLE_CONTENT, "AMOUNT_EXCEEDS_AUTHORIZED",
                    "capture amount exceeds the authorized amount");
        }
        Payment moved = payments.transition(current.id(), Payment.AUTHORIZED,
                p -> p.withAmount(captured).withState(Payment.COMPLETED, clock.instant()))
                .orElseThrow(() -> invalidState(current, "only an AUTHORIZED payment can be captured"));
        log.info("captured paymentId={} amount={}", moved.id(), moved.amount());
        webhooks.announce(moved, false);
        return moved;
    }

    Payment voidPayment(Payment current) {
        Payment moved = payments.transition(current.id(), Payment.AUTHORIZED,
                p -> p.withState(Payment.CANCELLED, clock.instant()))
                .orElseThrow(() -> invalidState(current, "only an AUTHORIZED payment can be voided"));
        log.info("voided paymentId={}", moved.id());
        webhooks.announce(moved, false);
        return moved;
    }

    private Payment store(CreateRequest r, CallPlan plan, String baseUrl) {
        String id = "pay_" + HexFormat.of().formatHex(randomBytes());
        Instant now = clock.instant();
        boolean deposit = Payment.DEPOSIT.equals(r.paymentType());
        String state = deposit ? Payment.CHECKOUT
                : properties.declinesRefundOf(r.amount()) ? Payment.DECLINED : Payment.COMPLETED;
        FaultRule settle = plan.first(Fault.SETTLE).orElse(null);
        if (settle != null) {
            state = settle.state() == null ? Payment.COMPLETED : settle.state();
        }
        String errorCode = null;
        if (plan.has(Fault.DECLINE)) {
            state = Payment.DECLINED;
            errorCode = plan.first(Fault.DECLINE).map(FaultRule::errorCode).orElse(null);
        }
        String redirect = deposit ? hostedBase(baseUrl) + "/hosted/" + id : null;
        Instant hidden = plan.first(Fault.INVISIBLE).map(f -> now.plusMillis(f.delayOr(0))).orElse(null);
        Payment payment = new Payment(payments.nextSeq(), id, r.referenceId(), r.paymentType(), state, r.amount(),
                r.currency(), redirect, null, null, r.parentPaymentId(), r.returnUrl(), r.webhookUrl(), r.customer(),
                r.billingAddress(), now, now, hidden);
        if (errorCode != null) {
            payment = payment.withError(errorCode, null);
        }
        payment = decorate(payment);
        payments.add(payment);
        return payment;
    }

    /** A DECLINED payment carries an errorCode and message, as the provider's do. */
    private static Payment decorate(Payment p) {
        if (Payment.DECLINED.equals(p.state()) && p.errorCode() == null) {
            return p.withError(Payment.REFUND.equals(p.paymentType()) ? "REFUND_DECLINED" : "DECLINED_BY_ISSUER",
                    "The payment was declined");
        }
        if (Payment.DECLINED.equals(p.state()) && p.errorMessage() == null) {
            return p.withError(p.errorCode(), "The payment was declined");
        }
        return p;
    }

    private void checkRefundable(CreateRequest r) {
        Payment parent = payments.get(r.parentPaymentId()).orElseThrow(() -> new GatewayError(
                HttpStatus.UNPROCESSABLE_CONTENT, "PARENT_NOT_FOUND", "no payment " + r.parentPaymentId()));
        if (!Payment.DEPOSIT.equals(parent.paymentType()) || !Payment.COMPLETED.equals(parent.state())) {
            throw new GatewayError(HttpStatus.UNPROCESSABLE_CONTENT, "PARENT_NOT_REFUNDABLE",
                    "only a COMPLETED deposit can be refunded");
        }
        if (!parent.currency().equals(r.currency())) {
            throw new GatewayError(HttpStatus.UNPROCESSABLE_CONTENT, "CURRENCY_MISMATCH",
                    "the refund's currency differs from the payment's");
        }
        if (refunded(parent).add(r.amount()).compareTo(parent.amount()) > 0) {
            throw new GatewayError(HttpStatus.UNPROCESSABLE_CONTENT, "REFUND_EXCEEDS_PAYMENT",
                    "the refunds would exceed the payment's amount");
        }
    }

    private BigDecimal refunded(Payment parent) {
        return payments.children(parent.id()).stream()
                .filter(c -> Payment.REFUND.equals(c.paymentType()) && !Payment.DECLINED.equals(c.state()))
                .map(Payment::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    private String hostedBase(String baseUrl) {
        return properties.publicUrl() != null ? properties.publicUrl() : baseUrl;
    }

    private static GatewayError invalidState(Payment p, String message) {
        return new GatewayError(HttpStatus.CONFLICT, "INVALID_STATE", message + " (state " + p.state() + ")");
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
