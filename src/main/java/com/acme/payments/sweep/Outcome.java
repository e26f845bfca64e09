package com.acme.payments.sweep;

/** What one resolve() of one row came to; {@link SweepLoop} counts it and backs off on {@code UNREACHABLE}. */
public enum Outcome {
    /** Settled, by this call or before it. */
    RESOLVED,
    /** The PSP shows nothing final yet: the row stays as it is for the next run. */
    STILL_UNKNOWN,
    /** Another instance claimed the row since: nothing was written. */
    FENCED,
    /** The PSP could not be asked: counts towards the outage back-off. */
    UNREACHABLE
}
