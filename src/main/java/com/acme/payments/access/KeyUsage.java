package com.acme.payments.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.Schedules;

import jakarta.annotation.PreDestroy;

/**
 * The issued keys' last use, kept in memory per request and written every {@code payments.access.usage-flush}
 * (one statement per key used since, never one per request); the row's {@code last_used_at} only moves forward,
 * whichever instance writes last. A flush that fails keeps its uses for the next one.
 */
@Component
class KeyUsage implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(KeyUsage.class);

    private final ApiKeyStore store;
    private final Clock clock;
    private final Duration period;
    private final Map<Long, Instant> unwritten = new ConcurrentHashMap<>();

    KeyUsage(ApiKeyStore store, Clock clock, AccessProperties properties) {
        this.store = store;
        this.clock = clock;
        this.period = properties.usageFlush();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.fixedDelay(registrar, period, period, this, "flush");
    }

    void used(long keyId) {
        Instant now = clock.instant();
        unwritten.merge(keyId, now, (seen, latest) -> latest.isAfter(seen) ? latest : seen);
    }

    /** Writes the uses seen since the last flush. */
    void flush() {
        for (Map.Entry<Long, Instant> use : Map.copyOf(unwritten).entrySet()) {
            try {
                store.touch(use.getKey(), use.getValue());
                unwritten.remove(use.getKey(), use.getValue()); // a later use meanwhile stays for the next flush
            } catch (DataAccessException e) {
                log.warn("key use not written, kept for the next flush: key={} error={}", use.getKey(),
                        e.getClass().getSimpleName());
                return;
            }
        }
    }

    @PreDestroy
    void flushOnStop() {
        flush();
    }
}
