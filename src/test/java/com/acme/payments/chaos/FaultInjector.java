package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The faults, each on its own thread with its own seeded random: SIGKILL of a service instance and a
 * restart on the same port; PostgreSQL connections terminated at random; full PostgreSQL outages (the
 * run's own server stopped and started, {@link PostgresOutage}); PSP faults from the menu of the surface
 * the run uses ({@link ChaosPsp#fault}), each rule for the next matching call(s). A new fault is one more loop here.
 */
final class FaultInjector {

    private final ChaosSettings settings;
    private final ServiceProcesses services;
    private final ChaosSimulator sim;
    private final ChaosPsp psp;
    private final Tally tally = new Tally();
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private final List<Thread> threads = new ArrayList<>();
    private final List<java.time.Instant> kills = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final java.util.Optional<PostgresOutage> outage;

    FaultInjector(ChaosSettings settings, ServiceProcesses services, ChaosSimulator sim, ChaosPsp psp) {
        this.settings = settings;
        this.services = services;
        this.sim = sim;
        this.psp = psp;
        this.outage = TestDatabaseName.ownServer().map(server -> new PostgresOutage(server, services, tally));
    }

    /** The PostgreSQL outages, when the run has a server of its own to stop. */
    java.util.Optional<PostgresOutage> outage() {
        return outage;
    }

    Tally tally() {
        return tally;
    }

    /** When each SIGKILL happened. */
    List<java.time.Instant> kills() {
        return kills;
    }

    void start() {
        spawn("chaos-kill", new Random(settings.seed() ^ 0x1111), this::killLoop);
        spawn("chaos-pg-kill", new Random(settings.seed() ^ 0x2222), this::pgKillLoop);
        spawn("chaos-psp-faults", new Random(settings.seed() ^ 0x3333), this::pspFaultLoop);
        outage.ifPresent(o -> spawn("chaos-pg-outage", new Random(settings.seed() ^ 0x4444), random -> {
            while (sleepAbout(random, settings.pgOutageEvery())) {
                o.once(settings.pgOutageLength());
            }
        }));
    }

    /** Stops injecting, clears the PSP faults and brings every instance back up. */
    void stop() throws InterruptedException {
        // no interrupt: a restart in progress finishes (an interrupted health poll would spin)
        stopped.countDown();
        for (Thread thread : threads) {
            thread.join(180_000);
        }
        sim.clearFaults();
        for (int i = 0; i < services.count(); i++) {
            services.start(i, ServiceProcesses.START_WITHIN);
        }
    }

    private void spawn(String name, Random random, java.util.function.Consumer<Random> loop) {
        Thread thread = new Thread(() -> loop.accept(random), name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private void killLoop(Random random) {
        while (sleepAbout(random, settings.killEvery())) {
            int victim = random.nextInt(services.count());
            // not during a PostgreSQL outage: an instance cannot start without its database, and the
            // outage proves the instances come back UP without a restart
            outage.ifPresent(o -> o.exclusive().lock());
            try {
                kills.add(java.time.Instant.now());
                services.kill(victim);
                tally.add("sigkill-instance");
                ServiceProcesses.sleep(500 + random.nextInt(2000));
                try {
                    services.start(victim, ServiceProcesses.START_WITHIN);
                    tally.add("restart-instance");
                } catch (RuntimeException e) {
                    tally.add("restart-failed");
                }
            } finally {
                outage.ifPresent(o -> o.exclusive().unlock());
            }
        }
    }

    private void pgKillLoop(Random random) {
        String database = TestDatabaseName.current();
        while (sleepAbout(random, settings.pgKillEvery())) {
            long from = System.nanoTime();
            try (Connection c = TestDatabaseName.connect(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("""
                            SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
                             WHERE datname = '%s' AND pid <> pg_backend_pid()
                               AND application_name <> '%s' AND random() < 0.3"""
                            .formatted(database, TestDatabaseName.HARNESS))) {
                rs.next();
                tally.add("pg-terminate-round");
                if (rs.getInt(1) > 0) {
                    InjectedOutages.connectionsTerminated(from, System.nanoTime());
                }
                for (int i = rs.getInt(1); i > 0; i--) {
                    tally.add("pg-connection-terminated");
                }
            } catch (Exception e) {
                tally.add("pg-terminate-error");
            }
        }
    }

    private void pspFaultLoop(Random random) {
        while (sleepAbout(random, settings.faultEvery())) {
            ChaosPsp.Fault fault = psp.fault(random);
            try {
                tally.add((sim.addFaults(fault.rule()) ? "psp." : "psp-refused.") + fault.name());
            } catch (RuntimeException e) {
                tally.add("psp-fault-error");
            }
        }
    }

    /** Sleeps a random 0.5x–1.5x of {@code mean}; false once stopped. */
    private boolean sleepAbout(Random random, Duration mean) {
        long millis = (long) (mean.toMillis() * (0.5 + random.nextDouble()));
        try {
            return !stopped.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
