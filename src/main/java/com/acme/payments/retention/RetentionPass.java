package com.acme.payments.retention;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.Shutdown;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * One pass of a {@link RetentionJob}: each step batch after batch (each batch one short transaction in its
 * Store, so no lock is held for long and a failure loses nothing done before it) until a batch is short, the
 * step's cap is reached or the instance is stopping. Counted under the job's name: {@code payments.job.runs},
 * {@code .duration}, {@code .claimed} (rows deleted or erased) and {@code .failures} (passes a database error
 * ended; the next pass starts over). Public for the scheduled task's observation.
 */
public final class RetentionPass {

    private static final Logger log = LoggerFactory.getLogger(RetentionPass.class);

    private final RetentionJob job;
    private final JobMetrics metrics;
    private final Shutdown shutdown;
    private final Clock clock;

    RetentionPass(RetentionJob job, MeterRegistry registry, Shutdown shutdown, Clock clock) {
        this.job = job;
        this.metrics = new JobMetrics(registry, job.name());
        this.shutdown = shutdown;
        this.clock = clock;
    }

    RetentionJob job() {
        return job;
    }

    /** The scheduled turn: only where the job is enabled. */
    public void scheduled() {
        if (job.settings().enabled()) {
            run();
        }
    }

    /** One pass; returns the rows each step took, by the step's {@code what}. */
    public Map<String, Integer> run() {
        long started = clock.millis();
        Map<String, Integer> taken = new LinkedHashMap<>();
        int batchSize = job.settings().batchSize();
        try {
            for (RetentionJob.Step step : job.steps()) {
                int rows = 0;
                int batches = 0;
                int took;
                do {
                    took = step.batch().applyAsInt(batchSize);
                    rows += took;
                    batches++;
                    metrics.claimed(took);
                } while (took >= batchSize && batches < job.settings().maxBatches() && !shutdown.stopping());
                taken.put(step.what(), rows);
            }
            if (taken.values().stream().anyMatch(n -> n > 0)) {
                log.info("retention {}: {}", job.name(), taken);
            }
        } catch (DataAccessException e) {
            metrics.failure();
            log.warn("retention {} failed after {}, retrying next interval: {}", job.name(), taken,
                    e.getClass().getSimpleName());
        } finally {
            metrics.run(Duration.ofMillis(clock.millis() - started));
        }
        return taken;
    }
}
