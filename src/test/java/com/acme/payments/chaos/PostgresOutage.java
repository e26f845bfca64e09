package com.acme.payments.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A full PostgreSQL outage mid-load: the run's own server is stopped (immediate: every session cut),
 * kept down for {@code length}, then started again. While it is down every live instance must answer
 * 503 — {@code /actuator/health} DOWN and an API call {@code database-unavailable} — and once it is back
 * every instance must report UP again by itself, without a restart. Kills wait for an outage to end
 * ({@link #exclusive()}), so "without a restart" means what it says. The verdicts are answers, never
 * durations: the wait for UP is an upper bound. Each outage's window, from the stop until every instance
 * is UP again, is kept ({@link #during}): a {@code 503 database-unavailable} is excused only inside one.
 */
final class PostgresOutage {

    /** How long an instance may take to notice the server is back (an upper bound, not a verdict on speed). */
    private static final Duration BACK_UP_WITHIN = Duration.ofSeconds(300);

    private final ChaosPostgres server;
    private final ServiceProcesses services;
    private final ServiceClient client;
    private final Tally tally;
    private final ReentrantLock exclusive = new ReentrantLock();
    private final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<String> observations = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<long[]> windows = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile long downSince = -1;

    PostgresOutage(ChaosPostgres server, ServiceProcesses services, Tally tally) {
        this.server = server;
        this.services = services;
        this.client = new ServiceClient(services);
        this.tally = tally;
    }

    /** Held for a whole outage; the kill loop takes it for each kill and restart. */
    ReentrantLock exclusive() {
        return exclusive;
    }

    /** One outage of {@code length}, with its probes. */
    void once(Duration length) {
        exclusive.lock();
        try {
            List<Integer> up = new ArrayList<>();
            for (int i = 0; i < services.count(); i++) {
                if (services.alive(i) && services.healthy(i)) {
                    up.add(i);
                }
            }
            long stoppedAt = System.nanoTime();
            downSince = stoppedAt;
            server.stop();
            tally.add("pg-server-stopped");
            boolean[] healthDown = new boolean[services.count()];
            boolean[] api503 = new boolean[services.count()];
            do {
                for (int i : up) {
                    probe(i, healthDown, api503);
                }
                ServiceProcesses.sleep(250);
            } while (System.nanoTime() - stoppedAt < length.toNanos());
            for (int i : up) {
                // the server is still down: a probe round that did not finish before the length ends now
                if (!healthDown[i] || !api503[i]) {
                    probe(i, healthDown, api503);
                }
            }
            server.start();
            tally.add("pg-server-started");
            long downSeconds = Duration.ofNanos(System.nanoTime() - stoppedAt).toSeconds();
            for (int i : up) {
                if (!healthDown[i]) {
                    violations.add("instance " + i + ": /actuator/health never answered 503 while PostgreSQL was down");
                }
                if (!api503[i]) {
                    violations.add("instance " + i + ": the API never answered 503 database-unavailable while down");
                }
                long deadline = System.nanoTime() + BACK_UP_WITHIN.toNanos();
                while (!services.healthy(i) && System.nanoTime() < deadline) {
                    ServiceProcesses.sleep(250);
                }
                if (services.healthy(i)) {
                    tally.add("pg-outage: instance back UP without a restart");
                } else {
                    violations.add("instance " + i + " not UP within " + BACK_UP_WITHIN + " after PostgreSQL came back");
                }
            }
            observations.add("down " + downSeconds + " s, instances probed " + up);
        } finally {
            if (downSince >= 0) {
                windows.add(new long[] { downSince, System.nanoTime() });
                downSince = -1;
            }
            exclusive.unlock();
        }
    }

    /**
     * Whether a request sent at {@code fromNanos} and answered at {@code toNanos} ({@link System#nanoTime})
     * overlapped an outage: from the server's stop until every instance was UP again, or one going on now.
     */
    boolean during(long fromNanos, long toNanos) {
        long since = downSince;
        if (since >= 0 && toNanos >= since) {
            return true;
        }
        return windows.stream().anyMatch(w -> fromNanos <= w[1] && toNanos >= w[0]);
    }

    private void probe(int instance, boolean[] healthDown, boolean[] api503) {
        ServiceClient.Answer health = client.health(instance);
        if (health.status() == 503) {
            healthDown[instance] = true;
            tally.add("pg-outage: health DOWN (503)");
        } else if (health.answered()) {
            violations.add("instance " + instance + ": health answered " + health.status() + " while PostgreSQL was down");
        }
        ServiceClient.Answer api = client.call(instance, "GET", "/api/orders/chaos-outage-probe",
                ServiceClient.SHOP_KEY, null, null);
        if (api.status() == 503 && api.problem().equals("database-unavailable")) {
            api503[instance] = true;
            tally.add("pg-outage: API 503 database-unavailable");
        } else if (api.answered()) {
            violations.add("instance " + instance + ": API answered " + api.status() + " " + api.problem()
                    + " while PostgreSQL was down");
        }
    }

    /** The invariant for the summary: what was seen during and after each outage. */
    Invariants.Check check() {
        Invariants.Check check = new Invariants.Check(
                "PostgreSQL outage: every instance 503 while down, UP again without a restart");
        check.checked = tally.get("pg-server-stopped") * Math.max(1, services.count());
        check.violations.addAll(violations);
        return check;
    }

    List<String> observations() {
        return observations;
    }
}
