package com.acme.payments.chaos;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The PostgreSQL outages this run injected, for every invariant that must tell an outage's
 * {@code 503 database-unavailable} from one the service gave with its database up (a pool or bulkhead
 * wait, a fault of its own): only a request that overlapped an injected outage is excused — the server
 * stopped, or a round of terminated connections (a request whose statement lost its connection answers
 * 503 too). A run that injects neither excuses no 503.
 */
final class InjectedOutages {

    private static volatile Optional<PostgresOutage> current = Optional.empty();

    private InjectedOutages() {
    }

    /** Rounds of terminated connections, each from before its statement was sent to after it answered. */
    private static final List<long[]> TERMINATIONS = new CopyOnWriteArrayList<>();

    static void use(Optional<PostgresOutage> outage) {
        current = outage;
        TERMINATIONS.clear();
    }

    /** A round that terminated at least one of the service's connections, somewhere between the two instants. */
    static void connectionsTerminated(long fromNanos, long toNanos) {
        TERMINATIONS.add(new long[] {fromNanos, toNanos});
    }

    /** Whether a request sent at {@code fromNanos} and answered at {@code toNanos} overlapped an injected outage. */
    static boolean during(long fromNanos, long toNanos) {
        return current.map(o -> o.during(fromNanos, toNanos)).orElse(false)
                || TERMINATIONS.stream().anyMatch(t -> t[0] <= toNanos && fromNanos <= t[1]);
    }

    /** The documented answer of an outage, to a request that overlapped one the run injected. */
    static boolean excused(ServiceClient.Answer a) {
        return a.status() == 503 && a.problem().equals("database-unavailable") && during(a.sentNanos(), a.answeredNanos());
    }
}
