package com.acme.payments.outbox;

import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

/**
 * Carries a trace across the outbox: the row stores the {@code traceparent} of the span that wrote it,
 * and the delivery runs in a span continuing it, so the sink call (an observed client) sends a
 * {@code traceparent} with the writer's trace id although it leaves later, from another thread or instance.
 */
@Component
class DeliveryTrace {

    static final String TRACEPARENT = "traceparent";
    private static final String INVALID_TRACE_ID = "0".repeat(32);

    /** One delivery, with the relay's own interruption contract. */
    interface Delivery<T> {
        T send() throws InterruptedException;
    }

    private final Tracer tracer;
    private final Propagator propagator;

    DeliveryTrace(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        this.tracer = tracer.getIfAvailable(() -> Tracer.NOOP);
        this.propagator = propagator.getIfAvailable(() -> Propagator.NOOP);
    }

    /**
     * The current span's W3C traceparent ({@code 00-<trace id>-<span id>-<flags>}), or null outside any trace (or
     * with tracing off). Written from the span's context, not through the propagator: the composite propagator
     * also walks the baggage on every outbox write, and the row keeps only the traceparent.
     */
    String current() {
        Span span = tracer.currentSpan();
        if (span == null) {
            return null;
        }
        TraceContext context = span.context();
        String traceId = context.traceId();
        String spanId = context.spanId();
        if (traceId == null || traceId.length() != 32 || spanId == null || spanId.length() != 16
                || traceId.equals(INVALID_TRACE_ID)) {
            return null; // no valid W3C context (a no-op tracer's ids)
        }
        return "00-" + traceId + "-" + spanId + (Boolean.TRUE.equals(context.sampled()) ? "-01" : "-00");
    }

    /** Runs {@code delivery} in a span continuing {@code traceParent} (a new trace when it is null). */
    <T> T continuing(String traceParent, String kind, Delivery<T> delivery) throws InterruptedException {
        Span span = (traceParent == null ? tracer.spanBuilder()
                : propagator.extract(Map.of(TRACEPARENT, traceParent), Map::get))
                .name("outbox delivery")
                .tag("outbox.kind", kind)
                .start();
        try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
            return delivery.send();
        } catch (RuntimeException | InterruptedException e) {
            span.error(e);
            throw e;
        } finally {
            span.end();
        }
    }
}
