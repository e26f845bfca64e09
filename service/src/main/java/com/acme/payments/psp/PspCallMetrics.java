package com.acme.payments.psp;

import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code payments.psp.calls{operation,outcome}}: every call to the PSP Gateway by how it ended —
 * {@code ok}; {@code rejected} (a 4xx: a confirmed refusal); {@code timeout} (no complete answer within
 * the connect or read timeout); {@code error} (5xx, a reset, a body that is no envelope: the outcome is
 * unknown); {@code unbookable} (an answer holding a value we cannot book). The host-tagged
 * {@code http.client.requests} timer cannot tell a timeout from a reset, nor the PSP from a sink on the
 * same host; this counter is what the {@code PspErrors} alert reads. Every pair is registered at zero.
 */
@Component
class PspCallMetrics {

    static final List<String> OPERATIONS = List.of("create", "get", "find", "capture", "void");
    static final String OK = "ok";
    static final String REJECTED = "rejected";
    static final String TIMEOUT = "timeout";
    static final String ERROR = "error";
    static final String UNBOOKABLE = "unbookable";
    private static final List<String> OUTCOMES = List.of(OK, REJECTED, TIMEOUT, ERROR, UNBOOKABLE);

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    PspCallMetrics(MeterRegistry registry) {
        this.registry = registry;
        OPERATIONS.forEach(operation -> OUTCOMES.forEach(outcome -> counter(operation, outcome)));
    }

    void record(String operation, String outcome) {
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
