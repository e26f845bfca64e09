package com.acme.payments.books;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.stereotype.Component;

import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PaymentProvider;
import com.acme.payments.psp.PaymentProvider.ListingPage;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.PspRejected;
import com.acme.payments.sweep.LeaseOwner;

import jakarta.annotation.PreDestroy;

/**
 * Runs reconciliations in the background, on this instance's executor: a run lists the PSP's records of its
 * window page by page ({@link PaymentProvider#listCreated}), holds them against ours ({@link BooksComparison}),
 * asks the PSP about ours it did not list, and records what differs. It only reads: nothing is booked, the
 * event, replay and poll paths book what they learn. Each call is asked again after a 429, a 5xx or no answer,
 * with a doubling pause (capped, and at least a {@code Retry-After}); a refusal or a run out of retries fails
 * the run with the reason. The run's row is its lease, renewed after each page: a run taken over by another
 * instance (this one stalled past the lease) stops here without writing.
 */
@Component
public class BooksReconciliationOrchestrator {

    private static final Logger log = LoggerFactory.getLogger(BooksReconciliationOrchestrator.class);
    /** Ids (and references) looked up among ours per statement. */
    private static final int LOOKUP_CHUNK = 1000;

    private final PaymentProvider provider;
    private final BooksLedgerStore ledger;
    private final BooksReconciliationRunStore runs;
    private final BooksProperties properties;
    private final BooksMetrics metrics;
    private final RetryTemplate retry;
    private final ExecutorService executor;
    private final String owner;

    @Autowired
    BooksReconciliationOrchestrator(PaymentProvider provider, BooksLedgerStore ledger, BooksReconciliationRunStore runs,
            BooksProperties properties, BooksMetrics metrics) {
        this(provider, ledger, runs, properties, metrics, LeaseOwner.newName());
    }

    /** With its own owner name: a test's second instance. */
    BooksReconciliationOrchestrator(PaymentProvider provider, BooksLedgerStore ledger, BooksReconciliationRunStore runs,
            BooksProperties properties, BooksMetrics metrics, String owner) {
        this.provider = provider;
        this.ledger = ledger;
        this.runs = runs;
        this.properties = properties;
        this.metrics = metrics;
        this.owner = owner;
        this.retry = new RetryTemplate(RetryPolicy.builder()
                .maxRetries(properties.retries())
                .delay(properties.retryDelay())
                .multiplier(2)
                .maxDelay(properties.retryMaxDelay())
                .predicate(failure -> failure instanceof PaymentOutcomeUnknown)
                .build());
        this.executor = Executors.newFixedThreadPool(properties.threads(), r -> {
            Thread thread = new Thread(r, "books-reconciliation");
            thread.setDaemon(true);
            return thread;
        });
    }

    String owner() {
        return owner;
    }

    /** A run of {@code [from, to)} asked for by {@code requestedBy}, started in the background (or the one running). */
    UUID start(Instant requestedFrom, Instant requestedTo, String requestedBy) {
        // the database keeps microseconds: the run covers the window it records
        Instant from = requestedFrom.truncatedTo(ChronoUnit.MICROS);
        Instant to = requestedTo.truncatedTo(ChronoUnit.MICROS);
        BooksReconciliationRunStore.Started started = runs.start(from, to, null, requestedBy, owner, properties.lease());
        if (started.created()) {
            submit(started.id(), from, to);
        }
        return started.id();
    }

    /** The night's run, unless another instance started it; its id when this one did. */
    Optional<UUID> startNight(LocalDate night) {
        Instant from = night.atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
        Instant to = night.plusDays(1).atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
        BooksReconciliationRunStore.Started started = runs.start(from, to, night, "nightly", owner, properties.lease());
        if (!started.created()) {
            return Optional.empty();
        }
        submit(started.id(), from, to);
        return Optional.of(started.id());
    }

    /** Runs whose instance died, taken over here (from the start); those that died too often are failed. */
    List<UUID> takeOver() {
        List<UUID> taken = runs.takeOver(owner, properties.lease(), properties.maxTakeovers(), properties.threads());
        for (UUID id : taken) {
            runs.find(id).ifPresent(run -> {
                log.warn("reconciliation run taken over, id={} owner={}", id, owner);
                submit(id, run.from(), run.to());
            });
        }
        return taken;
    }

    private void submit(UUID id, Instant from, Instant to) {
        executor.execute(() -> run(id, from, to));
    }

    /** One run, to its end: done, failed, or stopped because another instance took it over. */
    void run(UUID id, Instant from, Instant to) {
        long started = System.nanoTime();
        try {
            if (!runs.renew(id, owner, properties.lease())) {
                return; // taken over while it waited in the queue
            }
            BooksComparison books = new BooksComparison(provider.listsOnlyOurs(), ledger.inWindow(from, to));
            String cursor = null;
            do {
                String at = cursor;
                ListingPage page = asked(() -> provider.listCreated(from, to, at, properties.pageSize()));
                page.items().forEach(books::offer);
                renewOrStop(id);
                cursor = page.next();
            } while (cursor != null);
            settleUnmatched(books);
            List<OurRecord> leftovers = books.leftovers();
            if (leftovers.size() > properties.maxLookups()) {
                throw new RunFailed(leftovers.size() + " of our records are not in the PSP's listing (more than "
                        + properties.maxLookups() + " to ask about one by one)");
            }
            for (OurRecord ours : leftovers) {
                // no PSP id: a create whose outcome we never learnt, booked nowhere; the sweep resolves it
                books.alone(ours, ours.pspPaymentId() == null ? Optional.empty()
                        : asked(() -> provider.get(ours.pspPaymentId())));
            }
            List<Mismatch> mismatches = books.mismatches();
            if (runs.finish(id, owner, books.pspRecords(), books.ourRecords(), mismatches, properties.keepMismatches())) {
                metrics.finished(Duration.ofNanos(System.nanoTime() - started));
                log.info("reconciliation run done, id={} from={} to={} pspRecords={} ourRecords={} mismatches={}", id,
                        from, to, books.pspRecords(), books.ourRecords(), mismatches.size());
            }
        } catch (TakenOver stopped) {
            log.warn("reconciliation run taken over by another instance, id={} owner={}", id, owner);
        } catch (RuntimeException failure) {
            // the reason is shown by the API: ours in words, never an exception's class or a database's message
            String reason = failure instanceof RunFailed ? failure.getMessage()
                    : "an internal error ended the run (the service's log has it, at this run's id)";
            if (!(failure instanceof RunFailed)) {
                log.error("reconciliation run failed unexpectedly, id={}", id, failure);
            }
            if (runs.fail(id, owner, reason)) {
                metrics.failed();
                log.warn("reconciliation run failed, id={} from={} to={} reason={}", id, from, to, reason);
            }
        }
    }

    /** The PSP records no record of ours of the window matched, against ours of any date. */
    private void settleUnmatched(BooksComparison books) {
        List<String> ids = new ArrayList<>(books.unmatchedIds());
        List<String> references = new ArrayList<>(books.unmatchedReferences());
        List<OurRecord> found = new ArrayList<>();
        for (int i = 0; i < Math.max(ids.size(), references.size()); i += LOOKUP_CHUNK) {
            found.addAll(ledger.byIds(slice(ids, i), slice(references, i)));
        }
        List<String> payments = new ArrayList<>(books.unmatchedPayments());
        Map<String, String> orderOf = new HashMap<>();
        for (int i = 0; i < payments.size(); i += LOOKUP_CHUNK) {
            ledger.ordersOf(Set.copyOf(slice(payments, i))).forEach(row -> orderOf.put(row[0], row[1]));
        }
        books.settle(found, orderOf);
    }

    private static List<String> slice(List<String> list, int from) {
        return list.subList(Math.min(from, list.size()), Math.min(from + LOOKUP_CHUNK, list.size()));
    }

    private void renewOrStop(UUID id) {
        if (!runs.renew(id, owner, properties.lease())) {
            throw new TakenOver();
        }
    }

    /**
     * One PSP call, asked again while its outcome is unknown (a 429, a 5xx, no answer): the template's doubling
     * pause, lengthened to the PSP's {@code Retry-After} (capped) where it asked for longer.
     */
    private <T> T asked(java.util.function.Supplier<T> call) {
        try {
            return retry.execute(() -> {
                try {
                    return call.get();
                } catch (PaymentOutcomeUnknown unknown) {
                    Optional<Duration> after = unknown.retryAfter();
                    if (after.isPresent()) {
                        pause(after.get().compareTo(properties.retryMaxDelay()) > 0 ? properties.retryMaxDelay()
                                : after.get());
                    }
                    throw unknown;
                }
            });
        } catch (RetryException exhausted) {
            Throwable last = exhausted.getCause() != null ? exhausted.getCause() : exhausted;
            if (last instanceof PspRejected rejected) {
                throw new RunFailed("the PSP refused the listing: " + rejected.getMessage());
            }
            log.warn("reconciliation: the PSP did not answer, last failure {}: {}", last.getClass().getSimpleName(),
                    last.getMessage());
            throw new RunFailed("the PSP did not answer after " + (properties.retries() + 1) + " tries");
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailed("interrupted while waiting to ask the PSP again");
        }
    }

    @PreDestroy
    void stop() throws InterruptedException {
        // a run cut short keeps its row running; its lease runs out and another instance takes it over
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** The run cannot finish: recorded as failed with this reason. */
    static final class RunFailed extends RuntimeException {
        RunFailed(String reason) {
            super(reason);
        }
    }

    /** Another instance took the run over: this one stops without writing. */
    private static final class TakenOver extends RuntimeException {
    }
}
