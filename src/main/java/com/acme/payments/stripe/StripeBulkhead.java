package com.acme.payments.stripe;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.springframework.stereotype.Component;

import com.zaxxer.hikari.HikariDataSource;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Bounds the Stripe deliveries of this instance that are inside the database (claim, business transaction,
 * release) below the connection pool, and queues the rest in arrival order (a fair semaphore) for at most
 * {@code stripe.bulkhead.max-wait} per delivery. Without it a burst of distinct events queued in the pool
 * itself, twice per event (claim, then transaction), where a waiter can be overtaken and the pool's 5 s
 * timeout answered 503; Stripe then backs off for hours. A delivery that holds a permit finds a free
 * connection, and the connections above the permits stay for the rest of the service.
 * Meters: {@code stripe.bulkhead.waiting} (deliveries queued now), {@code stripe.bulkhead.wait} (time a
 * delivery queued for its permit).
 */
@Component
class StripeBulkhead {

    private final Semaphore permits;
    private final int size;
    private final long maxWaitNanos;
    private final AtomicInteger waiting = new AtomicInteger();
    private final Timer waits;

    StripeBulkhead(StripeProperties properties, DataSource dataSource, MeterRegistry registry) {
        int pool = poolSize(dataSource);
        Integer configured = properties.bulkhead().permits();
        this.size = configured != null ? configured : Math.max(1, pool / 2);
        if (configured != null && pool > 0 && size >= pool) { // derived: half, below any pool but one of 1
            throw new IllegalStateException("stripe.bulkhead.permits (" + size + ") must be below the connection "
                    + "pool's size (spring.datasource.hikari.maximum-pool-size = " + pool + ")");
        }
        this.permits = new Semaphore(size, true);
        this.maxWaitNanos = properties.bulkhead().maxWait().toNanos();
        Gauge.builder("stripe.bulkhead.waiting", waiting, AtomicInteger::get)
                .description("Stripe deliveries queued for a database permit now").register(registry);
        this.waits = Timer.builder("stripe.bulkhead.wait")
                .description("Time a Stripe delivery queued for its database permit").register(registry);
    }

    int permits() {
        return size;
    }

    /** Takes a permit, queueing at most the max wait; the whole delivery shares that one budget. */
    Permit enter() {
        Permit permit = new Permit(System.nanoTime() + maxWaitNanos);
        permit.acquire();
        return permit;
    }

    /** 0 when the pool is not Hikari's (its size unknown): then only the configured or derived count applies. */
    private static int poolSize(DataSource dataSource) {
        try {
            return dataSource.isWrapperFor(HikariDataSource.class)
                    ? dataSource.unwrap(HikariDataSource.class).getMaximumPoolSize() : 0;
        } catch (SQLException e) {
            return 0;
        }
    }

    /** One delivery's permit; closing gives it back. */
    final class Permit implements AutoCloseable {

        private final long deadline;
        private boolean held;

        private Permit(long deadline) {
            this.deadline = deadline;
        }

        /**
         * Runs {@code work} (a network call) without the permit, then queues for it again within what is left
         * of the delivery's wait: a call to Stripe never holds a place in the database.
         */
        <T> T outside(Supplier<T> work) {
            giveBack();
            T result = work.get();
            acquire();
            return result;
        }

        private void acquire() {
            long start = System.nanoTime();
            waiting.incrementAndGet();
            boolean acquired;
            try {
                acquired = permits.tryAcquire(Math.max(0, deadline - start), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                acquired = false;
            } finally {
                waiting.decrementAndGet();
            }
            waits.record(Duration.ofNanos(System.nanoTime() - start));
            if (!acquired) {
                throw new QueueTimeout();
            }
            held = true;
        }

        private void giveBack() {
            if (held) {
                held = false;
                permits.release();
            }
        }

        @Override
        public void close() {
            giveBack();
        }
    }

    /** No permit within the delivery's wait: the caller answers 503 and Stripe retries. */
    static final class QueueTimeout extends RuntimeException {
        QueueTimeout() {
            super("no Stripe database permit within stripe.bulkhead.max-wait", null, false, false);
        }
    }
}
