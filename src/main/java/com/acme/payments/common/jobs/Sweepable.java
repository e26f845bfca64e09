package com.acme.payments.common.jobs;

import java.time.Duration;
import java.util.List;

/**
 * What one {@link Sweep} pass needs of a table: age dead owners' IN_FLIGHT rows and claim UNKNOWN ones.
 * Every table of claim → call → settle → sweep has it; those keyed by a numeric id have the rest of the
 * shape in {@link SweptTable}.
 */
public interface Sweepable<T> {

    /** IN_FLIGHT rows older than {@code age} → UNKNOWN: their owner is presumed dead (it would have timed out). */
    int ageInFlight(Duration age, int limit);

    /**
     * Claims up to {@code limit} UNKNOWN rows in one statement (SKIP LOCKED), hiding them from other
     * sweeps for {@code lease} and bumping their lease version, which fences a sweeper that outlived it.
     */
    List<T> claimUnknown(Duration lease, int limit);
}
