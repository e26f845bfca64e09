package com.acme.payments.psp;

import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code payments.psp.calls{operation,outcome}}: every call to the PSP — the Gateway or Stripe, whichever
 * adapter {@code PSP_PROVIDER} chose — by how it ended: {@code ok}; {@code rejected} (a confirmed refusal,
 * {@link PspRejected}); {@code timeout} (no complete answer within the connect or read timeout);
 * {@code error} (any other {@link PaymentOutcomeUnknown}: a 5xx, a reset, a body that is no envelope, and at
 * Stripe also a 409 or {@code idempotency_error} about the key, a 429, a 4xx without Stripe's error object);
 * {@code unbookable} (an answer holding a value we cannot book). The outcome is read from the exception the
 * adapter's own classification threw ({@link #count}), so both providers are counted by one rule and only
 * their refusal-or-unknown decision differs. Operations: {@code create} (a checkout or a refund, a Stripe
 * reconcile's replay of one included), {@code get}, {@code find} (a look-up by our reference; at Stripe every
 * page of a listing), {@code capture}, {@code void}. The host-tagged {@code http.client.requests} timer
 * cannot tell a timeout from a reset, nor the PSP from a sink on the same host; this counter is what the
 * {@code PspErrors} alert reads. Every pair is registered at zero.
 */
@Component
public class PspCallMetrics {

    public static final String CREATE = "create";
    public static final String GET = "get";
    public static final String FIND = "find";
    public static final String CAPTURE = "capture";
    public static final String VOID = "void";
    static final List<String> OPERATIONS = List.of(CREATE, GET, FIND, CAPTURE, VOID);
    static final String OK = "ok";
    static final String REJECTED = "rejected";
    static final String TIMEOUT = "timeout";
    static final String ERROR = "error";
    static final String UNBOOKABLE = "unbookable";
    private static final List<String> OUTCOMES = List.of(OK, REJECTED, TIMEOUT, ERROR, UNBOOKABLE);

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public PspCallMetrics(MeterRegistry registry) {
        this.registry = registry;
        OPERATIONS.forEach(operation -> OUTCOMES.forEach(outcome -> counter(operation, outcome)));
    }

    /**
     * One call, counted by how it ended: its value is {@code ok}, a {@link PspRejected} {@code rejected}, a
     * {@link PaymentOutcomeUnknown} by its causes ({@link #unknown}); the exception is rethrown unchanged.
     * {@code call} must be the whole call — sent, answered and read — so nothing it throws is left uncounted.
     */
    public <T> T count(String operation, Supplier<T> call) {
        if (!OPERATIONS.contains(operation)) {
            throw new IllegalArgumentException("not a PSP call operation: " + operation); // a tag never registered
        }
        try {
            T result = call.get();
            record(operation, OK);
            return result;
        } catch (PspRejected rejected) {
            record(operation, REJECTED);
            throw rejected;
        } catch (PaymentOutcomeUnknown unknown) {
            record(operation, unknown(unknown));
            throw unknown;
        }
    }

    private void record(String operation, String outcome) {
        counter(operation, outcome).increment();
    }

    /** The outcome of a call that ended {@link PaymentOutcomeUnknown}, from its causes. */
    static String unknown(PaymentOutcomeUnknown failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpTimeoutException || cause instanceof SocketTimeoutException) {
                return TIMEOUT;
            }
            if (cause instanceof PaymentPayloadFault) {
                return UNBOOKABLE;
            }
        }
        return ERROR;
    }

    private Counter counter(String operation, String outcome) {
        return counters.computeIfAbsent(operation + "/" + outcome, k -> Counter.builder("payments.psp.calls")
                .description("Calls to the PSP by operation and outcome").tag("operation", operation)
                .tag("outcome", outcome).register(registry));
    }
}
