package com.acme.pspsim;

import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One fault rule, bound from {@code pspsim.faults[n].*} or posted to {@code /sim/faults}.
 *
 * @param operation {@code create}, {@code get}, {@code find}, {@code list} (the books' listing), {@code capture},
 *        {@code void}, {@code webhook} or {@code sink}; on the Stripe surface {@code stripe-session-create}, …,
 *        {@code stripe-intent-list} and {@code stripe-refund-list} (the books' listings; see
 *        {@link Fault#OPERATIONS}) and {@code stripe-event}
 * @param fault a {@link Fault} name ({@code ERROR_AFTER} or {@code error-after}), or several joined by
 *        commas, which then act together on the same call ({@code timeout,invisible})
 * @param referenceId only calls (or webhooks) about this referenceId; null: any. On the Stripe surface: any
 *        id the call or event is about (session, PaymentIntent, refund id, {@code client_reference_id},
 *        {@code Idempotency-Key}, {@code metadata[referenceId]})
 * @param paymentType only this payment type; null: any
 * @param amount only this amount (compared by value); null: any
 * @param times how many matching calls it applies to; null: every one
 * @param delayMs latency, hold time, webhook delay or invisibility window, depending on the fault
 * @param status the HTTP status of {@code ERROR_BEFORE} / {@code ERROR_AFTER} / a failing sink
 * @param state the state of {@code SETTLE}, {@code WEBHOOK_BEFORE_RESPONSE} on create, or the stale
 *        copy of {@code WEBHOOK_OUT_OF_ORDER}; on {@code stripe-event}: only events of this type
 * @param errorCode the errorCode of {@code DECLINE}
 * @param field the payment field {@code CORRUPT_ANSWER} replaces ({@code currency}, {@code amount}, {@code id}, …)
 * @param value what {@code CORRUPT_ANSWER} puts there: a JSON number when it reads as a decimal, else a string
 */
record FaultRule(String operation, String fault, String referenceId, String paymentType, BigDecimal amount,
        Integer times, Long delayMs, Integer status, String state, String errorCode, String field, String value) {

    FaultRule {
        if (operation == null || !Fault.OPERATIONS.contains(operation.trim().toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("operation must be one of " + Fault.OPERATIONS + ": " + operation);
        }
        operation = operation.trim().toLowerCase(Locale.ROOT);
        if (fault == null || fault.isBlank()) {
            throw new IllegalArgumentException("fault is required");
        }
        Set<Fault> kinds = EnumSet.noneOf(Fault.class);
        for (String part : fault.split(",")) {
            Fault kind;
            try {
                kind = Fault.parse(part);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown fault: " + part.trim());
            }
            if (!kind.appliesTo(operation)) {
                throw new IllegalArgumentException(kind + " does not apply to " + operation);
            }
            kinds.add(kind);
        }
        fault = kinds.stream().map(Enum::name).collect(Collectors.joining(","));
        if (times != null && times < 1) {
            throw new IllegalArgumentException("times must be at least 1");
        }
        if (delayMs != null && delayMs < 0) {
            throw new IllegalArgumentException("delayMs must not be negative");
        }
        if (status != null && (status < 100 || status > 599)) {
            throw new IllegalArgumentException("status must be an HTTP status");
        }
        if (kinds.contains(Fault.CORRUPT_ANSWER) && (field == null || field.isBlank() || value == null)) {
            throw new IllegalArgumentException("corrupt-answer needs a field and a value");
        }
    }

    Set<Fault> kinds() {
        Set<Fault> kinds = EnumSet.noneOf(Fault.class);
        for (String part : fault.split(",")) {
            kinds.add(Fault.valueOf(part));
        }
        return kinds;
    }

    long delayOr(long fallback) {
        return delayMs == null ? fallback : delayMs;
    }

    /** A rule that only a create sent again may match ({@link Fault#REFUSE_REPLAY}). */
    boolean onlyReplays() {
        return kinds().contains(Fault.REFUSE_REPLAY);
    }

    /** A Stripe call or event: {@code referenceId} may name any of its {@code subjects}; {@code state} is an event type. */
    boolean matchesStripe(String op, java.util.Collection<String> subjects, BigDecimal amt, String eventType,
            boolean replay) {
        return operation.equals(op) && (replay || !onlyReplays())
                && (referenceId == null || subjects.contains(referenceId))
                && (state == null || !"stripe-event".equals(op) || state.equals(eventType))
                && (amount == null || (amt != null && amount.compareTo(amt) == 0));
    }

    boolean matches(String op, String ref, String type, BigDecimal amt, boolean replay) {
        return operation.equals(op) && (replay || !onlyReplays())
                && (referenceId == null || referenceId.equals(ref))
                && (paymentType == null || paymentType.equalsIgnoreCase(String.valueOf(type)))
                && (amount == null || (amt != null && amount.compareTo(amt) == 0));
    }
}
