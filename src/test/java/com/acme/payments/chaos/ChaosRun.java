package com.acme.payments.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One chaos run: the simulator in this JVM, the service as separate processes on one database, the
 * workload and the faults for {@code duration}, then quiet (faults cleared, every instance up) until the
 * sweeps, replay and relay have settled or {@code settleTimeout} passed, then the invariants. Writes
 * the summary to stdout and to target/chaos/summary-<seed>.txt; process output is in target/chaos/*.log.
 */
final class ChaosRun {

    private ChaosRun() {
    }

    /** Runs against the simulator's Gateway API and returns the printed summary. */
    static Outcome run(ChaosSettings settings) throws Exception {
        return run(settings, new GatewayPsp());
    }

    /**
     * Runs against the given surface of the simulator and returns the printed summary; the result says
     * whether every invariant held.
     */
    static Outcome run(ChaosSettings settings, ChaosPsp psp) throws Exception {
        Path logDir = Path.of("target", "chaos");
        Files.createDirectories(logDir);
        // this run's logs only: the invariants read the relays' takeover lines from them
        try (var old = Files.list(logDir)) {
            for (Path log : old.filter(f -> f.getFileName().toString().startsWith("instance-")).toList()) {
                Files.delete(log);
            }
        }
        long started = System.nanoTime();
        ChaosPostgres.startIfAvailable().ifPresent(TestDatabaseName::useOwnServer);
        String database = TestDatabaseName.ownServer()
                .map(pg -> "own PostgreSQL on port " + pg.port() + " (stopped and started mid-load)")
                .orElse("the shared test PostgreSQL (no outage: it is not ours to stop)");
        int[] ports = ServiceProcesses.freePorts(settings.instances());
        try (ChaosSimulator sim = new ChaosSimulator(psp.simulatorProperties("http://localhost:" + ports[0]));
                ServiceProcesses services = new ServiceProcesses(ports, sim.url, psp, logDir)) {
            for (int i = 0; i < services.count(); i++) {
                services.start(i, ServiceProcesses.START_WITHIN);
            }
            long up = System.nanoTime();
            ServiceClient client = new ServiceClient(services);
            ScopedKeys.issue(client);
            Workload workload = new Workload(client, psp.page(sim), settings.seed());
            FaultInjector faults = new FaultInjector(settings, services, sim, psp);
            InjectedOutages.use(faults.outage());
            DowngradeMonitor monitor = new DowngradeMonitor();
            monitor.start();
            ChaosPsp.Extras extras = psp.extras(settings, services, sim, workload, faults);
            workload.start(settings.shoppers());
            extras.start();
            faults.start();
            Thread.sleep(settings.duration().toMillis());
            workload.stop();
            extras.stop();
            long workloadEnded = System.nanoTime();
            faults.stop();
            extras.finish(settings.settleTimeout());

            Invariants.Result result = extras.check(monitor.downgrades(), faults.kills(), client);
            long deadline = System.nanoTime() + settings.settleTimeout().toNanos();
            int quietRounds = 0;
            while (System.nanoTime() < deadline && quietRounds < 2) {
                Thread.sleep(2000);
                result = extras.check(monitor.downgrades(), faults.kills(), client);
                quietRounds = result.unsettled() == 0 ? quietRounds + 1 : 0;
            }
            monitor.stop();
            result = extras.check(monitor.downgrades(), faults.kills(), client);
            List<Invariants.Check> checks = result.checks();
            faults.outage().ifPresent(outage -> checks.add(outage.check()));
            checks.add(ScopedKeys.check());
            checks.add(ScenarioKinds.check(ScenarioKinds.of(psp.scenarioKinds(), faults.outage().isPresent()),
                    workload.tally(), faults.tally()));
            long ended = System.nanoTime();

            List<String> lines = new ArrayList<>();
            lines.add("==== chaos summary (seed " + settings.seed() + ") ====");
            lines.add("settings: " + settings);
            lines.add("database: " + database);
            faults.outage().ifPresent(o -> o.observations().forEach(x -> lines.add("PostgreSQL outage: " + x)));
            lines.add("wall time: start %ds, workload %ds, settle %ds, total %ds".formatted(
                    seconds(up - started), seconds(workloadEnded - up), seconds(ended - workloadEnded),
                    seconds(ended - started)));
            lines.add("-- workload (%d actions counted)".formatted(workload.tally().total()));
            workload.tally().snapshot().forEach((k, v) -> lines.add("  %-60s %6d".formatted(k, v)));
            lines.add("-- faults injected (%d)".formatted(faults.tally().total()));
            faults.tally().snapshot().forEach((k, v) -> lines.add("  %-60s %6d".formatted(k, v)));
            lines.add("-- facts after settling");
            result.facts().forEach((k, v) -> lines.add("  %-60s %6d".formatted(k, v)));
            lines.add("  %-60s %6d".formatted("status samples taken", monitor.samples()));
            lines.add("-- invariants");
            result.checks().forEach(c -> lines.add("  " + c));
            lines.add(result.ok() ? "ALL INVARIANTS HELD (seed " + settings.seed() + ")"
                    : "INVARIANT VIOLATED — reproduce with -Dchaos.seed=" + settings.seed());
            String summary = String.join(System.lineSeparator(), lines);
            System.out.println(summary);
            Files.writeString(logDir.resolve("summary-" + settings.seed() + ".txt"), summary);
            if (!result.ok()) {
                // the evidence, before the database is dropped and the simulator stopped
                keepEvidence(sim, psp, logDir, settings.seed());
            }
            return new Outcome(result.ok(), summary);
        } finally {
            InjectedOutages.use(java.util.Optional.empty());
            ScopedKeys.clear();
            TestDatabaseName.drop();
        }
    }

    /** The simulator's records and the database of a red run, next to the instance logs. */
    private static void keepEvidence(ChaosSimulator sim, ChaosPsp psp, Path logDir, long seed)
            throws java.io.IOException {
        for (var records : psp.evidence(sim).entrySet()) {
            Files.writeString(logDir.resolve("sim-" + records.getKey() + "-" + seed + ".json"),
                    records.getValue().toString());
        }
        Files.writeString(logDir.resolve("sim-sink-" + seed + ".json"), sim.sink().toString());
        TestDatabaseName.dumpTo(logDir.resolve("db-" + seed + ".sql").toAbsolutePath());
        System.out.println("chaos: evidence kept in " + logDir.toAbsolutePath() + " (sim-*-" + seed + ".json, db-" + seed
                + ".sql)");
    }

    record Outcome(boolean ok, String summary) {
    }

    private static long seconds(long nanos) {
        return Duration.ofNanos(nanos).toSeconds();
    }
}
