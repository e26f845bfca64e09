package com.acme.pspsim;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** What a fault rule does to the call (or webhook) it matches. */
enum Fault {
    /** Wait {@code delayMs} before handling the call. */
    LATENCY,
    /** Handle the call, then hold the answer ({@code delayMs}, else {@code pspsim.timeout-hold}) and drop the connection. */
    TIMEOUT,
    /** Answer {@code status} (default 503) without doing anything: nothing is created. */
    ERROR_BEFORE,
    /** Do the call, then answer {@code status} (default 500): the payment exists. */
    ERROR_AFTER,
    /** Do the call, then answer {@code 200 text/html}, as a proxy's error page would. */
    HTML,
    /** Do the call, then answer 200 JSON cut in the middle. */
    TRUNCATED,
    /** Do the call, then close the connection without an answer (the client sees EOF/reset). */
    RESET,
    /** Create the payment already {@code DECLINED} (errorCode from the rule, default {@code DECLINED_BY_ISSUER}). */
    DECLINE,
    /** Create the payment already in {@code state} (default {@code COMPLETED}) and send its webhook. */
    SETTLE,
    /** Hide the created payment from {@code referenceId} look-ups for {@code delayMs}. */
    INVISIBLE,
    /**
     * On a webhook: deliver it (and have it answered) before the HTTP call that caused it answers.
     * On a create: the payment moves to {@code state} (default {@code COMPLETED}) at once and its
     * webhook is delivered before the create response, which still shows the payment as created.
     */
    WEBHOOK_BEFORE_RESPONSE,
    /** Deliver the webhook twice. */
    WEBHOOK_TWICE,
    /** Deliver the webhook {@code delayMs} late. */
    WEBHOOK_LATE,
    /** Deliver the webhook, then a stale copy in {@code state} (default {@code AUTHORIZED}). */
    WEBHOOK_OUT_OF_ORDER,
    /** Never deliver the webhook (recorded as {@code suppressed}). */
    WEBHOOK_NEVER,
    /**
     * On a look-up ({@code get}, {@code find}): answer normally, but with {@code field} of each matching
     * payment replaced by {@code value} (a payload value no booking may take, e.g. currency {@code EURO}).
     * The payment itself is unchanged: a later look-up without the rule shows the truth.
     */
    CORRUPT_ANSWER,
    /**
     * On a create (Gateway {@code create}; Stripe {@code stripe-session-create}, {@code stripe-refund-create}):
     * only a create sent again — the same {@code Idempotency-Key} (Stripe) or {@code referenceId} (Gateway) as
     * an earlier POST, whatever became of that one — is refused with {@code status} (default 400) and the
     * surface's error body ({@code errorCode}: the Gateway's {@code errorCode}, Stripe's {@code code}); nothing
     * is done or stored under the key. A first send neither matches the rule nor uses it up.
     */
    REFUSE_REPLAY;

    static final Set<String> OPERATIONS = Set.of("create", "get", "find", "capture", "void", "webhook", "sink",
            "stripe-session-create", "stripe-session-get", "stripe-session-list", "stripe-session-expire",
            "stripe-intent-get", "stripe-intent-capture", "stripe-intent-cancel", "stripe-refund-create",
            "stripe-refund-get", "stripe-event", "list", "stripe-intent-list", "stripe-refund-list");

    private static final Set<Fault> ANY_CALL = EnumSet.of(LATENCY, TIMEOUT, ERROR_BEFORE, ERROR_AFTER, HTML,
            TRUNCATED, RESET);
    private static final Set<Fault> CREATE_ONLY = EnumSet.of(DECLINE, SETTLE, INVISIBLE, WEBHOOK_BEFORE_RESPONSE,
            REFUSE_REPLAY);
    private static final Set<Fault> WEBHOOK = EnumSet.of(WEBHOOK_BEFORE_RESPONSE, WEBHOOK_TWICE, WEBHOOK_LATE,
            WEBHOOK_OUT_OF_ORDER, WEBHOOK_NEVER);
    private static final Set<Fault> SINK = EnumSet.of(LATENCY, ERROR_BEFORE, RESET);
    private static final Set<Fault> LOOKUP_ONLY = EnumSet.of(CORRUPT_ANSWER);

    /** Accepts {@code ERROR_AFTER}, {@code error-after} or {@code error_after}. */
    static Fault parse(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    boolean appliesTo(String operation) {
        switch (operation) {
            case "webhook", "stripe-event":
                return WEBHOOK.contains(this);
            case "sink":
                return SINK.contains(this);
            case "create":
                return ANY_CALL.contains(this) || CREATE_ONLY.contains(this);
            case "get", "find", "stripe-session-get", "stripe-session-list", "stripe-intent-get", "stripe-refund-get":
                return ANY_CALL.contains(this) || LOOKUP_ONLY.contains(this);
            case "stripe-session-create": // a session hidden from listings for a while: the list path's blind spot
                return ANY_CALL.contains(this) || this == INVISIBLE || this == REFUSE_REPLAY;
            case "stripe-refund-create":
                return ANY_CALL.contains(this) || this == REFUSE_REPLAY;
            default:
                return ANY_CALL.contains(this);
        }
    }
}
