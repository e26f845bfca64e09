package com.acme.payments.outbox;

import java.util.HashMap;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import io.micrometer.tracing.Span;
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

    /** The current span's W3C traceparent, or null outside any trace (or with tracing off). */
    String current() {
        Span span = tracer.currentSpan();
        if (span == null) {
            return null;
        }
        Map<String, String> carrier = new HashMap<>();
        propagator.inject(span.context(), carrier, Map::put);
        return carrier.get(TRACEPARENT);
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
