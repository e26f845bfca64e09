package com.acme.payments.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;

import com.acme.payments.PaymentsApplication;

/**
 * Starts extra "instances" of the service in this JVM: each its own application context, connection
 * pool and scheduler, against this run's database and PSP stub — as two pods would share them.
 */
public final class Instances {

    /**
     * Logback has one LoggerContext per JVM, and Boot's logging set-up at each start writes its properties
     * while another start may be copying them: three starts at once once failed with a
     * ConcurrentModificationException there (ConcurrentStartIntegrationTests). Starts take turns for that
     * step only; everything after it, Flyway included, still runs at once.
     */
    private static final Semaphore LOGGING_SET_UP = new Semaphore(1);

    private Instances() {
    }

    public static ConfigurableApplicationContext start(Map<String, Object> overrides) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", TestDatabase.url());
        properties.put("spring.datasource.username", TestDatabase.user());
        properties.put("spring.datasource.password", TestDatabase.password());
        properties.put("payments.psp.api-url", PspStub.baseUrl());
        properties.put("server.port", "0");
        properties.putAll(overrides);
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        AtomicBoolean holding = new AtomicBoolean(true);
        LOGGING_SET_UP.acquireUninterruptibly();
        try {
            return new SpringApplicationBuilder(PaymentsApplication.class).profiles("test")
                    .listeners(new LoggingSetUp(holding)).run(args);
        } finally {
            letTheNextStartIn(holding); // a start that failed before its logging was set up
        }
    }

    private static void letTheNextStartIn(AtomicBoolean holding) {
        if (holding.getAndSet(false)) {
            LOGGING_SET_UP.release();
        }
    }

    /** After Boot's LoggingApplicationListener (lowest precedence): this start's logging is set up. */
    private record LoggingSetUp(AtomicBoolean holding)
            implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

        @Override
        public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
            letTheNextStartIn(holding);
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
