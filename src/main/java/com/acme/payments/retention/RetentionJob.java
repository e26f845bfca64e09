package com.acme.payments.retention;

import java.time.Duration;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * One retention job as its {@link Retainer} declares it: the name its meters carry ({@code job=<name>}), its
 * settings (read from the feature's own {@code *Properties}, so each default is written once) and its steps,
 * run in order each pass.
 *
 * @param name the job's name, unique across the application
 * @param settings when and how much
 * @param steps what it deletes or erases
 */
public record RetentionJob(String name, Settings settings, List<Step> steps) {

    public RetentionJob {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("retention job " + name + " has no steps");
        }
        steps = List.copyOf(steps);
    }

    /**
     * @param enabled whether this instance runs the job on its schedule (a test or operator may still run it)
     * @param interval pause between two passes
     * @param batchSize rows per statement: each batch is its own short transaction
     * @param maxBatches batches per step and pass at most, so one pass over a large backlog ends and the
     *        rest waits for the next pass
     */
    public record Settings(boolean enabled, Duration interval, int batchSize, int maxBatches) {

        public Settings {
            if (batchSize < 1 || maxBatches < 1 || interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("retention settings need a positive interval, batch and cap");
            }
        }
    }

    /**
     * One statement of the job, run batch after batch until a batch comes back short.
     *
     * @param what what the rows are, for the log ({@code "closed receipts"})
     * @param batch deletes or erases at most about {@code batchSize} rows in one transaction (a Store method)
     *        and returns how many it took
     */
    public record Step(String what, IntUnaryOperator batch) {
    }
}
