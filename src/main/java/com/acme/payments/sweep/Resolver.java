package com.acme.payments.sweep;

/**
 * A flow's side of the sweep, implemented by its orchestrator: the one resolve() the request path and the
 * sweep share, and the job that says which table the sweep claims from. {@link Sweeps} discovers every
 * Resolver bean and registers its schedule, back-off, gauges and its part of the operators' list.
 */
public interface Resolver<T extends Leased> {

    /** The sweep of this flow's table. */
    SweepJob<T> job();

    /**
     * Looks the row up at the PSP and settles it from what it shows. Under a held {@code lease} (the
     * sweep) nothing is written once another instance claimed the row ({@link Outcome#FENCED}); the
     * request path passes {@link Lease#NONE}.
     */
    Outcome resolve(T row, Lease lease);
}
