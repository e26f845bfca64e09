package com.acme.payments.sweep;

import java.util.List;
import java.util.function.Function;

/**
 * One poll as its {@link Poller} declares it: the job name the meters carry ({@code task=<name>}), the
 * claim of one batch (one committed statement; no ageing, nothing is leased) on the schedule it names, and
 * the ask of one row, answered as an {@link Outcome}. Each poll is its own scheduled task with its own
 * back-off. Most polls run on the straggler schedule (the three-argument constructor); a job the sweep
 * schedule already times for operators names it with {@link #onSweep}.
 */
public record PollJob<T>(String name, Claim<T> claim, Function<T, Outcome> poll) {

    /** A poll on {@code payments.stragglers.*}: the claim is handed those settings ({@code grace}, {@code batch-size}). */
    public PollJob(String name, Function<StragglerProperties, List<T>> claim, Function<T, Outcome> poll) {
        this(name, new OnStragglers<>(claim), poll);
    }

    /** A claim on {@code payments.sweep.*} (enabled, interval, initial delay, back-off from that interval). */
    public static <T> Claim<T> onSweep(Function<SweepProperties, List<T>> batch) {
        return new OnSweep<>(batch);
    }

    /** Which schedule a poll runs on, and the claim of one batch handed that schedule's settings. */
    public sealed interface Claim<T> permits OnStragglers, OnSweep {
    }

    /** On {@code payments.stragglers.*}. */
    public record OnStragglers<T>(Function<StragglerProperties, List<T>> batch) implements Claim<T> {
    }

    /** On {@code payments.sweep.*}. */
    public record OnSweep<T>(Function<SweepProperties, List<T>> batch) implements Claim<T> {
    }
}
