package com.acme.payments.outbox;

import java.net.URI;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.outbox.OutboxMetrics.Result;
import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.Schedules;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Delivers outbox rows at least once, and through the dedup record at most once per key.
 * <p>
 * One turn: claim a batch (row leases + dedup keys, committed), deliver each row OUTSIDE any
 * transaction on a small bounded pool (a batch holds at most one row per aggregate, see the claim),
 * then record each result with a write fenced by the row's lease version (the batch's acceptances
 * together, in one statement). A relay that dies at any point leaves leases that expire on the
 * database clock; another instance then takes the rows over.
 * <p>
 * A key this relay holds stays its own while its {@link RelaySession} lives, however long the call or
 * the "sent" write takes: a slow relay is never doubled. The window that remains: the sink accepted
 * and the relay's session ended (the process died, or the database or network cut the session) before
 * {@code markSent} committed, which it does with the batch's other acceptances, at most
 * {@code record-within} plus one write after the 2xx ({@link SentRecorder}). After the lease another
 * relay takes the key over, logs and counts it ({@code taken_over}), and sends again <em>with the same
 * {@code Idempotency-Key}</em>; a sink that honours that header answers the repeat without acting
 * twice. Besides that, only a call we saw fail (a read timeout) that the sink had in fact accepted goes
 * out twice, also with the same key.
 */
@Component
public class OutboxRelay implements SmartLifecycle, SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    static final String JOB = "outbox-relay";

    /** A scheduled turn keeps claiming while there is work, for at most this long. */
    private static final Duration MAX_TURN = Duration.ofSeconds(5);
    /** Safety margin between the last send a lease allows and the lease's end. */
    private static final Duration LEASE_MARGIN = Duration.ofSeconds(1);

    private final OutboxStore store;
    private final SinkRoutes routes;
    private final SinkClient sink;
    private final OutboxMetrics metrics;
    private final OutboxProperties properties;
    private final Clock clock;
    private final RetrySchedule retries;
    private final OutboxStore.GiveUp giveUp;
    private final SentRecorder sent;
    private final String owner;
    private final RelaySession session;
    private final AtomicInteger threads = new AtomicInteger();
    /** Senders; made anew when a stopped relay is started again (a context's stop and start, or pause). */
    private volatile ExecutorService pool;
    private final ReentrantLock turn = new ReentrantLock();
    /** {@code task=outbox-relay}: turns, rows claimed, and the relay's own failures (database, session,
     * a delivery task that threw); a sink's refusals are the deliveries counter's and the outbox alerts'. */
    private final JobMetrics job;
    private volatile boolean running;
    private volatile boolean stopping;

    OutboxRelay(OutboxStore store, SinkRoutes routes, SinkClient sink, OutboxMetrics metrics,
            OutboxProperties properties, Clock clock, DataSource dataSource, MeterRegistry registry) {
        this.store = store;
        this.job = new JobMetrics(registry, JOB);
        this.routes = routes;
        this.sink = sink;
        this.metrics = metrics;
        this.properties = properties;
        this.clock = clock;
        this.retries = new RetrySchedule(properties.backoff(), properties.maxBackoff(), RandomGenerator.getDefault());
        this.giveUp = new OutboxStore.GiveUp(properties.maxAttempts(), properties.retryHorizon());
        this.session = new RelaySession(dataSource);
        this.sent = new SentRecorder(store, metrics, session, () -> stopping);
        this.owner = "relay-" + UUID.randomUUID().toString().substring(0, 8);
        this.pool = senders();
    }

    private ExecutorService senders() {
        return new ThreadPoolExecutor(properties.concurrency(), properties.concurrency(), 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread thread = new Thread(r, "outbox-send-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        // the interval's default lives once, in the properties record
        Schedules.fixedDelay(registrar, properties.interval(), properties.interval(), this, "scheduledTurn");
    }

    void scheduledTurn() {
        if (properties.enabled() && running) {
            long started = System.nanoTime();
            try {
                runUntilIdle(MAX_TURN);
            } catch (DataAccessException e) {
                job.failure();
                log.warn("outbox relay turn failed, retrying next interval: {}", e.getClass().getSimpleName());
            }
            job.run(Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /** Claims and delivers batches until none is due or {@code budget} has passed; returns rows handled. */
    public int runUntilIdle(Duration budget) {
        Instant end = clock.instant().plus(budget);
        int total = 0;
        int handled;
        do {
            handled = runOnce();
            total += handled;
        } while (handled > 0 && !stopping && clock.instant().isBefore(end));
        return total;
    }

    /** One claim and its deliveries; returns how many rows the claim took (delivered or not). */
    public int runOnce() {
        if (stopping) {
            return 0;
        }
        turn.lock();
        try {
            int holder;
            try {
                holder = session.hold();
            } catch (SQLException e) {
                job.failure();
                log.warn("outbox relay cannot hold its database session, no claim this turn: {}",
                        e.getClass().getSimpleName());
                return 0;
            }
            Instant claimedAt = clock.instant();
            ClaimedBatch batch = store.claim(owner, holder, properties.batchSize(), properties.lease(),
                    routes.routableKinds(), properties.backoff());
            for (ClaimedEffect effect : batch.takenOver()) {
                metrics.record(effect.kind(), Result.TAKEN_OVER);
                log.warn("outbox row {} ({}) took over its key from a relay whose session had ended: "
                        + "that relay's send may have reached the sink, so this is a resend (same key)",
                        effect.id(), effect.idempotencyKey());
            }
            batch.duplicateKinds().forEach(kind -> metrics.record(kind, Result.DUPLICATE));
            batch.busyKinds().forEach(kind -> metrics.record(kind, Result.BUSY));
            if (!batch.busyKinds().isEmpty()) {
                log.info("outbox: {} rows wait for their key, held by another row", batch.busyKinds().size());
            }
            job.claimed(batch.size());
            deliverAll(batch.toDeliver(), lastSendAllowedAt(claimedAt));
            return batch.size();
        } finally {
            turn.unlock();
        }
    }

    /**
     * The lease started no earlier than {@code claimedAt} on the database; measured on our own clock
     * from there, a send that starts after this instant might outlast the lease.
     */
    private Instant lastSendAllowedAt(Instant claimedAt) {
        return claimedAt.plus(properties.lease()).minus(properties.sinks().callBudget()).minus(LEASE_MARGIN);
    }

    private void deliverAll(List<ClaimedEffect> effects, Instant lastSendAllowedAt) {
        List<Future<?>> futures = new ArrayList<>(effects.size());
        for (ClaimedEffect effect : effects) {
            try {
                futures.add(pool.submit(() -> deliver(effect, lastSendAllowedAt)));
            } catch (RejectedExecutionException e) { // stopped under us
                abandon(effect);
            }
        }
        // The acceptances are written here, in one statement when the calls have all answered; while
        // some take longer, what has come in is written every record-within (the resend window).
        long recordEvery = properties.recordWithin().toNanos();
        for (Future<?> future : futures) {
            while (true) {
                try {
                    future.get(recordEvery, TimeUnit.NANOSECONDS);
                    break;
                } catch (TimeoutException e) {
                    sent.drain();
                } catch (ExecutionException e) {
                    job.failure();
                    log.warn("outbox delivery task failed: {}", e.getCause().getClass().getSimpleName());
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return; // the leases bring the unfinished rows back
                }
            }
        }
        sent.drain();
    }

    private void deliver(ClaimedEffect effect, Instant lastSendAllowedAt) {
        Optional<URI> url = routes.urlFor(effect.kind());
        if (stopping || url.isEmpty() || clock.instant().isAfter(lastSendAllowedAt)) {
            abandon(effect);
            return;
        }
        SinkClient.Result answer;
        try {
            // Signed at send time: the sink's tolerance is measured from this moment, not from the claim.
            long now = clock.instant().getEpochSecond();
            if (SinkRoutes.isShopEvent(effect.kind())) {
                String body = ShopEventBody.of(effect);
                answer = sink.post(url.get(), shopEventHeaders(effect, now, body), body, effect.traceParent());
            } else {
                String body = SinkBody.of(effect);
                List<String> secrets = routes.secretsFor(effect.kind());
                String signature = secrets.isEmpty() ? null : SinkSignature.header(secrets, now, body);
                answer = sink.post(url.get(), effect.idempotencyKey(), body, signature, effect.traceParent());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // the lease brings the row back; the key holds it against duplicates meanwhile
        }
        try {
            if (answer.accepted()) {
                sent.accepted(effect);
            } else {
                recordFailure(effect, answer.error());
            }
        } catch (DataAccessException e) {
            // The outcome is not recorded; the lease expiry brings the row back (a resend, same key).
            job.failure();
            log.warn("outbox row {} outcome not recorded: {}", effect.id(), e.getClass().getSimpleName());
        }
    }

    /** Standard Webhooks: the event's id (its key), this try's time, and a signature per secret if any. */
    private Map<String, String> shopEventHeaders(ClaimedEffect effect, long now, String body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(StandardWebhookSignature.ID, effect.idempotencyKey());
        headers.put(StandardWebhookSignature.TIMESTAMP, Long.toString(now));
        List<byte[]> keys = routes.shopEventKeys();
        if (!keys.isEmpty()) {
            headers.put(StandardWebhookSignature.SIGNATURE,
                    StandardWebhookSignature.header(keys, effect.idempotencyKey(), now, body));
        }
        return headers;
    }

    private void recordFailure(ClaimedEffect effect, String error) {
        int failures = effect.attempts() + 1;
        OutboxStore.Failure recorded = store.markFailed(effect, error, retries.delayAfter(failures), giveUp);
        if (recorded == OutboxStore.Failure.DEAD) {
            metrics.record(effect.kind(), Result.DEAD);
            log.error("outbox row {} ({}) is dead after {} attempts (retry horizon {}, max attempts {}), "
                    + "last error: {}", effect.id(), effect.idempotencyKey(), failures, properties.retryHorizon(),
                    properties.maxAttempts(), error);
        } else if (recorded == OutboxStore.Failure.RETRY_LATER) {
            metrics.record(effect.kind(), Result.FAILED);
            log.info("outbox row {} ({}) failed attempt {}: {}", effect.id(), effect.idempotencyKey(), failures,
                    error);
        } else {
            metrics.record(effect.kind(), Result.LEASE_LOST);
        }
    }

    private void abandon(ClaimedEffect effect) {
        try {
            store.release(effect);
        } catch (DataAccessException e) {
            log.info("outbox row {} not released ({}); its lease will expire", effect.id(),
                    e.getClass().getSimpleName());
        }
        metrics.record(effect.kind(), Result.ABANDONED);
    }

    // Graceful shutdown: stop claiming, let calls in progress finish (bounded by the sink timeouts),
    // hand back rows not yet sent. Whatever is still leased after that comes back on lease expiry.

    /**
     * Also after {@link #stop()}: a context may be stopped and started again (the test framework pauses
     * a cached context that way), and a relay left {@code stopping} with its senders shut down would
     * claim nothing for the rest of its life. The session is locked again on the next claim.
     */
    @Override
    public void start() {
        turn.lock();
        try {
            if (pool.isShutdown()) {
                pool = senders();
            }
            stopping = false;
            running = true;
        } finally {
            turn.unlock();
        }
    }

    @Override
    public void stop() {
        stopping = true;
        running = false;
        try {
            // The turn in progress sees `stopping`: unsent rows are handed back, calls under way end
            // within the sink timeouts.
            Duration wait = properties.sinks().callBudget().plus(LEASE_MARGIN);
            if (turn.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                turn.unlock();
            } else {
                log.warn("outbox relay stopped with a turn still running; its leases will expire");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.shutdownNow();
            session.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops before the web server and the connection pool go, so it can still hand rows back. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }
}
