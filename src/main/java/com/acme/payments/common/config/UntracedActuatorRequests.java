package com.acme.payments.common.config;

import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.server.observation.ServerRequestObservationContext;

import io.micrometer.observation.Observation;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.TracingObservationHandler;

/**
 * Health checks and scrapes are timed, never traced. Their {@code http.server.requests} timer stays (the dashboard's
 * requests-by-status panel sums every URI), so this is not an {@code ObservationPredicate}, which would drop the
 * timer with the span: it is the first tracing handler for an {@code /actuator} request, so the span handlers
 * behind it never see one (no span, no propagation, no MDC). The empty tracing context it leaves is what the
 * tracing-aware meter handler reads at stop.
 */
@Configuration(proxyBeanMethods = false)
class UntracedActuatorRequests {

    static final String ACTUATOR = "/actuator/";

    @Bean
    @Order(MicrometerTracingAutoConfiguration.RECEIVER_TRACING_OBSERVATION_HANDLER_ORDER - 1)
    TracingObservationHandler<ServerRequestObservationContext> untracedActuatorRequestHandler(Tracer tracer) {
        return new Handler(tracer);
    }

    static final class Handler implements TracingObservationHandler<ServerRequestObservationContext> {

        private final Tracer tracer;

        Handler(Tracer tracer) {
            this.tracer = tracer;
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof ServerRequestObservationContext server && server.getCarrier() != null
                    && server.getCarrier().getRequestURI().startsWith(ACTUATOR);
        }

        @Override
        public void onStart(ServerRequestObservationContext context) {
            getTracingContext(context); // present and empty: no span
        }

        @Override
        public void onScopeOpened(ServerRequestObservationContext context) {
        }

        @Override
        public void onScopeClosed(ServerRequestObservationContext context) {
        }

        @Override
        public void onScopeReset(ServerRequestObservationContext context) {
        }

        @Override
        public void onEvent(Observation.Event event, ServerRequestObservationContext context) {
        }

        @Override
        public void onError(ServerRequestObservationContext context) {
        }

        @Override
        public void onStop(ServerRequestObservationContext context) {
        }

        @Override
        public Tracer getTracer() {
            return tracer;
        }
    }
}
