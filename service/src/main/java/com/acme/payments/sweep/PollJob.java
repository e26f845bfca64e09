package com.acme.payments.sweep;

import java.util.List;
import java.util.function.Function;

/**
 * One poll as its {@link Poller} declares it: the job name the meters carry ({@code task=<name>}), the
 * claim of one batch on the straggler schedule it is handed (one committed statement; no ageing, the
 * rows are spaced by {@code last_polled_at}, not leased) and the ask of one row, answered as an
 * {@link Outcome}. Each poll is its own scheduled task with its own back-off.
 */
public record PollJob<T>(String name, Function<StragglerProperties, List<T>> claim, Function<T, Outcome> poll) {
}
