package com.acme.payments.sweep;

/**
 * One sweep as its {@link Resolver} declares it: the job name the meters carry ({@code task=<name>}), its
 * table, and its group — the jobs of one group run one after the other in one scheduled turn and share
 * one back-off, so a PSP outage pauses them together. {@code gauge} is the {@code kind} tag of
 * {@code payments.attempts.unknown} or null for a table no dashboard gauges.
 */
public record SweepJob<T extends Leased>(String name, String group, SweptTable<T> table, Gauge gauge) {

    /** {@code payments.attempts.unknown{kind}} and its {@code .oldest.age}, with their descriptions. */
    public record Gauge(String kind, String countDescription, String ageDescription) {
    }
}
