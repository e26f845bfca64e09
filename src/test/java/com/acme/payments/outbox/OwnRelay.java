package com.acme.payments.outbox;

import java.time.Clock;
import java.util.Map;

import javax.sql.DataSource;

import org.springframework.context.ApplicationContext;

import com.acme.payments.support.BoundSettings;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A relay of a test's own with {@code payments.outbox.*} settings of its own (bound as at start-up: the
 * defaults for what is not given), over the shared context's store, routes, sink client and metrics: other
 * retry settings without a second application context. Stop it after the test (its session holds a
 * connection).
 */
final class OwnRelay {

    private OwnRelay() {
    }

    static OutboxRelay of(ApplicationContext context, Clock clock, Map<String, String> settings) {
        OutboxProperties properties = BoundSettings.bind(OutboxProperties.class, "payments.outbox", settings);
        return new OutboxRelay(context.getBean(OutboxStore.class), context.getBean(SinkRoutes.class),
                context.getBean(SinkClient.class), context.getBean(OutboxMetrics.class), properties, clock,
                context.getBean(DataSource.class), new SimpleMeterRegistry());
    }
}
