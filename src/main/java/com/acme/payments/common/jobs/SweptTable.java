package com.acme.payments.common.jobs;

import java.time.Duration;
import java.util.List;

/**
 * The Java shape of claim → call → settle → sweep, implemented by the Store of each table that follows
 * it (checkout attempts, capture/void operations, refunds). The SQL stays in each Store; what a row of
 * each table means stays with its feature. The database clock ({@code now()}) is the arbiter of every
 * age and lease here, so instances with skewed clocks still agree.
 */
public interface SweptTable<T> {

    /** IN_FLIGHT rows older than {@code age} → UNKNOWN: their owner is presumed dead (it would have timed out). */
    int ageInFlight(Duration age, int limit);

    /**
     * Claims up to {@code limit} UNKNOWN rows in one statement (SKIP LOCKED), hiding them from other
     * sweeps for {@code lease} and bumping their lease version, which fences a sweeper that outlived it.
     */
    List<T> claimUnknown(Duration lease, int limit);

    /** The owner's IN_FLIGHT → UNKNOWN after an ambiguous call. False when something settled it first. */
    boolean markUnknown(long id);

    /**
     * Inside the settling transaction ({@code Propagation.MANDATORY}): locks the row if the caller's
     * lease is still the current one. False means another instance claimed it since: write nothing.
     */
    boolean holdLease(long id, long version);
}
