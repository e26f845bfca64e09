package com.acme.payments.chaos;

import java.util.Optional;

/**
 * The PostgreSQL outages this run injected, for every invariant that must tell an outage's
 * {@code 503 database-unavailable} from one the service gave with its database up (a pool or bulkhead
 * wait, a fault of its own): only a request that overlapped an injected outage is excused. A run on the
 * shared test PostgreSQL injects none, so no 503 is excused there.
 */
final class InjectedOutages {

    private static volatile Optional<PostgresOutage> current = Optional.empty();

    private InjectedOutages() {
    }

    static void use(Optional<PostgresOutage> outage) {
        current = outage;
    }

    /** Whether a request sent at {@code fromNanos} and answered at {@code toNanos} overlapped an injected outage. */
    static boolean during(long fromNanos, long toNanos) {
        return current.map(o -> o.during(fromNanos, toNanos)).orElse(false);
    }

    /** The documented answer of an outage, to a request that overlapped one the run injected. */
    static boolean excused(ServiceClient.Answer a) {
        return a.status() == 503 && a.problem().equals("database-unavailable") && during(a.sentNanos(), a.answeredNanos());
    }
}
