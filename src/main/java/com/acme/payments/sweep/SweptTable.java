package com.acme.payments.sweep;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What the sweep needs of a table that follows claim → call → settle → sweep, implemented by its Store
 * (checkout attempts, capture/void operations, refunds — orders' and second charges' alike, one table):
 * age dead owners' IN_FLIGHT rows, claim UNKNOWN ones under a lease, hold that lease while settling,
 * list what is open for the operators and count it for the gauges. The SQL stays in each Store;
 * {@link SweptStore} runs the statements alike for all; what a row means stays with its feature. The
 * database clock ({@code now()}) is the arbiter of every age and lease here, so instances with skewed
 * clocks still agree.
 */
public interface SweptTable<T extends Leased> {

    /** IN_FLIGHT rows older than {@code age} → UNKNOWN: their owner is presumed dead (it would have timed out). */
    int ageInFlight(Duration age, int limit);

    /**
     * Claims up to {@code limit} UNKNOWN rows in one statement (SKIP LOCKED), hiding them from other
     * sweeps for {@code lease} and bumping their lease version, which fences a sweeper that outlived it.
     * When a row is due and how long a claimed one is hidden are apart: an UNKNOWN row no pass holds is
     * due at once (the first pass after it turned UNKNOWN looks at it), whatever {@code lease} is.
     */
    List<T> claimUnknown(Duration lease, int limit);

    /**
     * Ends the pass's hold on rows it looked at and left UNKNOWN (the PSP showed nothing final yet), so the
     * next pass of any instance looks again: the lease hides a row only while one pass resolves it. A lease
     * taken over since (another version) is left alone. Returns the rows released.
     */
    int releaseLeases(Collection<Lease> leases);

    /** The owner's IN_FLIGHT → UNKNOWN after an ambiguous call. False when something settled it first. */
    boolean markUnknown(long id);

    /**
     * Inside the settling transaction ({@code Propagation.MANDATORY}): locks the row if {@code lease} is
     * still the current one. False means another instance claimed it since: write nothing.
     */
    boolean holdLease(Lease lease);

    /** Its IN_FLIGHT and UNKNOWN rows, oldest first, at most {@code limit}, for the operators' list. */
    List<Unresolved> unresolved(int limit);

    /**
     * Open UNKNOWN rows and the oldest one's age, for {@code payments.attempts.unknown{kind}}; empty for a
     * table no dashboard gauges (see {@link SweepJob#gauge()}).
     */
    default Optional<OpenRows> unknownRows() {
        return Optional.empty();
    }
}
