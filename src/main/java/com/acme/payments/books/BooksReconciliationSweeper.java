package com.acme.payments.books;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.UUID;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.Schedules;

/**
 * Every {@code payments.books.nightly.check-interval}, on every instance: starts the previous UTC day's run
 * once it is due ({@code nightly.after} past midnight) unless an instance already has (the night's row is
 * unique, so exactly one does), and takes over the runs whose instance died (their lease ran out), or fails
 * those that died {@code max-takeovers} times. Never leaves a run {@code running} for good.
 */
@Component
class BooksReconciliationSweeper implements SchedulingConfigurer {

    private final BooksReconciliationOrchestrator orchestrator;
    private final BooksReconciliationRunStore runs;
    private final BooksProperties properties;
    private final BooksMetrics metrics;
    private final Clock clock;

    BooksReconciliationSweeper(BooksReconciliationOrchestrator orchestrator, BooksReconciliationRunStore runs,
            BooksProperties properties, BooksMetrics metrics, Clock clock) {
        this.orchestrator = orchestrator;
        this.runs = runs;
        this.properties = properties;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        var every = properties.nightly().checkInterval();
        Schedules.fixedDelay(registrar, every, every, this, "check");
    }

    /** One scheduled turn. */
    void check() {
        if (properties.nightly().enabled()) {
            nightly(ZonedDateTime.now(clock.withZone(ZoneOffset.UTC)));
            metrics.claimed(orchestrator.takeOver().size());
        }
    }

    /** The previous UTC day's run, if it is due at {@code now} and no instance started it; its id when this one did. */
    Optional<UUID> nightly(ZonedDateTime now) {
        ZonedDateTime utc = now.withZoneSameInstant(ZoneOffset.UTC);
        LocalDate night = utc.toLocalDate().minusDays(1);
        if (utc.isBefore(utc.toLocalDate().atStartOfDay(ZoneOffset.UTC).plus(properties.nightly().after()))
                || runs.nightStarted(night)) {
            return Optional.empty();
        }
        Optional<UUID> started = orchestrator.startNight(night);
        started.ifPresent(id -> metrics.claimed(1));
        return started;
    }
}
