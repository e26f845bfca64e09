package com.acme.payments.support;

import java.util.List;

/**
 * The late-truth watch's schedule as both watches (abandoned attempts, abandoned refunds) must keep it,
 * with the default {@code payments.stragglers.grace} (15 min) and abandoned-watch (30 days): each case
 * puts a row's {@code abandoned_at} and {@code last_polled_at} this far in the past (database clock) and
 * says whether one poll must ask the PSP about it.
 */
public final class WatchGaps {

    private WatchGaps() {
    }

    /** {@code polledAgo} null: never asked since the abandon. Intervals in PostgreSQL's syntax. */
    public record Case(String abandonedAgo, String polledAgo, boolean asked, String why) {
    }

    public static final List<Case> CASES = List.of(
            new Case("1 minute", null, true, "never asked since the abandon: at once"),
            new Case("20 minutes", "10 minutes", false, "young row: the gap is grace (15 min), not its 10 min age"),
            new Case("30 minutes", "16 minutes", true, "young row past grace"),
            new Case("3 hours", "1 hour", false, "2 h old at the last look-up: next one 2 h later, not 1 h"),
            new Case("4 hours", "2 hours 1 minute", true, "2 h old at the last look-up, 2 h passed"),
            new Case("3 days", "1 hour", false, "day 3, polled an hour ago: at most one look-up a day"),
            new Case("3 days", "23 hours", false, "day 3: the gap is a day, never longer or shorter"),
            new Case("3 days", "25 hours", true, "day 3, a day since the last look-up"),
            new Case("29 days", "25 hours", true, "29 days after the abandon: still watched"),
            new Case("31 days", "25 hours", false, "31 days after the abandon: past the 30-day watch"),
            new Case("31 days", null, false, "past the watch even if never asked"));
}
