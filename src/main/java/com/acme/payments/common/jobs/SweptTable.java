package com.acme.payments.common.jobs;

/**
 * The Java shape of claim → call → settle → sweep, implemented by the Store of each table that follows
 * it (checkout attempts, capture/void operations, refunds — orders' and second charges' alike, one table).
 * The SQL stays in each Store; {@link SweptStore} runs the statements alike for all; what a row of
 * each table means stays with its feature. The database clock ({@code now()}) is the arbiter of every
 * age and lease here, so instances with skewed clocks still agree.
 */
public interface SweptTable<T> extends Sweepable<T> {

    /** The owner's IN_FLIGHT → UNKNOWN after an ambiguous call. False when something settled it first. */
    boolean markUnknown(long id);

    /**
     * Inside the settling transaction ({@code Propagation.MANDATORY}): locks the row if the caller's
     * lease is still the current one. False means another instance claimed it since: write nothing.
     */
    boolean holdLease(long id, long version);
}
