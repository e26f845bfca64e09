package com.acme.payments.books;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * The books' reconciliation runs ({@code payments.books.*}).
 *
 * @param pageSize how many records each page of the PSP's listing asks for (both PSPs allow at most 100)
 * @param retries how often one call of a run is asked again after a 429, a 5xx or no answer, before the run fails
 * @param retryDelay the first pause before asking again; it doubles with each retry
 * @param retryMaxDelay the longest pause, also the most of a {@code Retry-After} that is honoured
 * @param lease how long a run's instance holds it without renewing; renewed after every page, so it must
 *        outlast one page with its retries. A run whose instance died is taken over about this long later
 * @param maxTakeovers how often a run whose instance died is taken over before it is marked failed
 * @param keepMismatches how many of a run's mismatches are kept to be listed (the run's count is all of them)
 * @param maxLookups how many of our records the listing did not show a run asks the PSP about one by one;
 *        past it the run fails (the books are too far apart for a run to say which)
 * @param threads how many runs one instance executes at once; more wait in its queue
 * @param nightly the nightly run of the previous UTC day
 */
@Validated
@ConfigurationProperties("payments.books")
public record BooksProperties(@DefaultValue("100") @Min(1) @Max(100) int pageSize,
        @DefaultValue("5") @Min(0) int retries,
        @DefaultValue("1s") @DurationMin(millis = 1) Duration retryDelay,
        @DefaultValue("30s") @DurationMin(millis = 1) Duration retryMaxDelay,
        @DefaultValue("2m") @DurationMin(seconds = 1) Duration lease,
        @DefaultValue("3") @Min(1) int maxTakeovers,
        @DefaultValue("1000") @Min(0) int keepMismatches,
        @DefaultValue("1000") @Min(0) int maxLookups,
        @DefaultValue("1") @Min(1) int threads,
        @DefaultValue Nightly nightly) {

    /**
     * @param enabled whether this instance takes part in the nightly run (off in tests, which call the job)
     * @param after how long after midnight UTC the previous day's run becomes due; from then on, every
     *        {@code check-interval}, each instance starts it unless one already has
     * @param checkInterval how often each instance looks whether the night's run is due, and whether a run
     *        whose instance died is waiting to be taken over
     */
    public record Nightly(@DefaultValue("true") boolean enabled,
            @DefaultValue("30m") Duration after,
            @DefaultValue("5m") @DurationMin(seconds = 1) Duration checkInterval) {
    }
}
