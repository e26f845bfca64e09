package com.acme.payments.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.support.TestDatabase;
import com.acme.pspsim.PspSimulatorApplication;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service benchmark (tag {@code benchmark}, never in the normal run; see docs/benchmarks.md). It
 * starts the PSP simulator in this JVM and two service instances as separate JVMs ({@code -Xmx512m})
 * against this run's own database, seeds history by SQL (10^4 rows, then 9 x 10^4 more), and measures
 * checkout, PSP webhook ingest, Stripe event ingest and the UNKNOWN sweep with 1 and 2 instances, the checkout latency
 * beyond the PSP's, the connection pool under a slow PSP, heap after GC, and the plans of the hot
 * statements, beside {@code pgbench -N -c 8 -j 2 -T 20} on the same server at the start and the end.
 * Everything is printed and written to {@code target/benchmarks/}.
 */
@Tag("benchmark")
class ServiceBenchmark {

    private static final Path DIR = Path.of("target", "benchmarks");
    private static final String SHOP = "Bearer test-shop-key";
    private static final String SIGNING_KEY = "test-signing-key";
    private static final String PSP_KEY = "test-psp-key";
    private static final String SIM_ADMIN = "Bearer bench-sim-admin";
    static final String STRIPE_SECRET = "whsec_test_secret"; // the test profile's stripe.webhook-secret
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final int seconds = Integer.getInteger("bench.seconds", 15);
    private final int warmup = Integer.getInteger("bench.warmup", 3);
    private final int clients = Integer.getInteger("bench.clients", 16);
    private final int webhooks = Integer.getInteger("bench.webhooks", 10_000);
    private final int unknowns = Integer.getInteger("bench.sweep", 10_000);
    private final int ops = Integer.getInteger("bench.ops", 3000);
    /** -Dbench.workloads=cost,sweep,latency: run only these (cost flow webhooks stripe sweep sweepab latency pool probe). */
    private final java.util.Set<String> workloads = java.util.Set.of(System.getProperty("bench.workloads",
            "cost,flow,webhooks,stripe,sweep,latency,pool,probe").split(","));
    private final int costClients = Integer.getInteger("bench.cost-clients", 8);
    /**
     * -Dbench.b-build=/path/to/other/checkout (built: target/classes and target/test-classes) and/or
     * -Dbench.b-props=a=1;b=2: instance B runs that commit and/or those settings, and the {@code ab} workload
     * runs the CPU-per-op workloads on A and B in turn (A B B A ...), {@code bench.ab-rounds} rounds, so the
     * machine's load weighs on both alike; the summary is each side's CPU over all its rounds.
     */
    private static final String B_BUILD = System.getProperty("bench.b-build", "");
    /** -Dbench.provider=stripe: the instances check out at the simulator's Stripe surface (default gateway). */
    private static final BenchProvider PROVIDER = BenchProvider.configured();
    private static final String B_PROPS = System.getProperty("bench.b-props", "");
    private static final int AB_ROUNDS = Integer.getInteger("bench.ab-rounds", 4);
    private final Map<String, double[]> abTotals = new LinkedHashMap<>();
    /** -Dbench.levels=1: only the 10^4 level. */
    private static final int LEVELS = Integer.getInteger("bench.levels", 2);
    /**
     * -Dbench.jfr=true: record instance A with JFR at 10^5 (the checkout, the applied webhook, flows, sweep).
     * Off by default: a recorded checkout read several times its CPU per op unrecorded, so a
     * recorded run says where the time goes, and an unrecorded one what it costs.
     */
    private static final boolean RECORD = Boolean.getBoolean("bench.jfr");
    /** -Dbench.jfr-level=0: record at the 10^4 level instead (with -Dbench.levels=1). */
    private static final int JFR_LEVEL = Integer.getInteger("bench.jfr-level", 1);
    /**
     * -Dbench.jfr-sampling=max: the .jfc option {@code method-profiling} of the recording (profile: 10 ms between
     * samples of a running thread; max: 1 ms, ten times the samples and more overhead).
     */
    private static final String JFR_SAMPLING = System.getProperty("bench.jfr-sampling", "");
    private final int[] history = { Integer.getInteger("bench.history.small", 10_000),
            Integer.getInteger("bench.history.large", 90_000) };

    private final StringBuilder report = new StringBuilder();
    private final List<String> summary = new ArrayList<>();
    private final List<String[]> costs = new ArrayList<>();
    private final AtomicLong sequence = new AtomicLong();
    private String simUrl;
    private ServiceProcess a;
    private ServiceProcess b;
    private Cpu cpu;

    @Test
    void serviceBenchmark() throws Exception {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING); // the simulator's Tomcat
        Files.createDirectories(DIR);
        line("== service benchmark, " + java.time.Instant.now() + " ==");
        line("machine: nproc " + shell("nproc").strip() + "; free -h:\n" + shell("free", "-h").stripTrailing());
        line("settings: clients " + clients + ", " + warmup + " s warm-up + " + seconds + " s per timed run, "
                + webhooks + " webhooks (+20 % duplicates) per ingest run, " + unknowns + " UNKNOWN attempts per sweep");

        Pgbench pgbench = new Pgbench("bench_pgbench");
        pgbench.init("-s", "10");
        uptime("pgbench (start)");
        double tpsStart = pgbench.tps();
        line(String.format("pgbench -N -c 8 -j 2 -T 20 (start): %.0f tps", tpsStart));

        Map<String, Object> simSettings = new LinkedHashMap<>(Map.of("pspsim.api-key", PSP_KEY,
                "pspsim.signing-key", SIGNING_KEY, "pspsim.admin-token", SIM_ADMIN.substring(7)));
        simSettings.putAll(BenchProvider.simulatorSettings());
        ConfigurableApplicationContext sim = PspSimulatorApplication.start(0, simSettings);
        simUrl = "http://127.0.0.1:" + sim.getEnvironment().getProperty("local.server.port");
        List<String> props = new ArrayList<>(List.of("spring.datasource.url=" + TestDatabase.url(),
                "spring.datasource.username=" + TestDatabase.user(),
                "spring.datasource.password=" + TestDatabase.password(), "payments.psp.api-url=" + simUrl,
                "payments.psp.read-timeout=10s", "payments.sweep.enabled=true", "payments.sweep.interval=100ms",
                "payments.sweep.initial-delay=1s"));
        props.addAll(PROVIDER.serviceSettings(simUrl));
        if (Boolean.getBoolean("bench.shop-events")) {
            // -Dbench.shop-events=true: the shop's events on, delivered to the simulator's sink by the relay, so an
            // operation's cost holds its event's write and its delivery (a build without events ignores the setting)
            props.add("payments.outbox.sinks.shop-events-url=" + simUrl + "/sink/shop-events");
            line("shop events: on, to the simulator's sink (-Dbench.shop-events)");
        }
        line("provider: " + PROVIDER.name().toLowerCase(java.util.Locale.ROOT) + " (-Dbench.provider)");
        // -Dbench.service-props=a=1;b=2: settings for an experiment on instances A and B (printed in the report)
        String extra = System.getProperty("bench.service-props", "");
        if (!extra.isBlank()) {
            props.addAll(List.of(extra.split(";")));
            line("service settings of this run: " + extra);
        }
        Map<Integer, String> jfr = new LinkedHashMap<>();
        try {
            a = ServiceProcess.start("instance-a", DIR, props);
            a.awaitHealthy(Duration.ofMinutes(10));
            List<String> bProps = new ArrayList<>(props);
            if (!B_PROPS.isBlank()) {
                bProps.addAll(List.of(B_PROPS.split(";")));
            }
            b = ServiceProcess.start("instance-b", DIR, bProps, B_BUILD.isBlank() ? null : Path.of(B_BUILD));
            if (!B_BUILD.isBlank() || !B_PROPS.isBlank()) {
                line("instance B: build " + (B_BUILD.isBlank() ? "this one" : B_BUILD) + ", extra settings "
                        + (B_PROPS.isBlank() ? "none" : B_PROPS));
            }
            b.awaitHealthy(Duration.ofMinutes(10));
            cpu = new Cpu(Map.of("instance-a", a.pid(), "instance-b", b.pid(), "harness+simulator",
                    ProcessHandle.current().pid()));
            line(String.format("instances: 2 JVMs (-Xmx512m), pids %d and %d; simulator in the harness JVM at %s",
                    a.pid(), b.pid(), simUrl));

            Seeder.history("h1_", history[0]);
            line(String.format("heap after GC at start: instance-a %.1f MiB, instance-b %.1f MiB", a.heapAfterGcMiB(),
                    b.heapAfterGcMiB()));
            line(threadLine("at start"));

            // JIT warm-up of both instances, not counted, so the first level is not measured on a cold JVM
            warmUp();
            if (workloads.contains("cost")) {
                cost("JIT pass", false); // every request type once more, untimed in effect: its rows are dropped below
                costs.clear();
            }
            for (int level = 0; level < LEVELS; level++) {
                if (level == 1) {
                    Seeder.history("h2_", history[1]);
                }
                String tag = level == 0 ? "10^4" : "10^5";
                line("\n== history " + tag + ": rows per table " + Seeder.tableRows() + " ==");
                boolean profile = level == JFR_LEVEL && RECORD;
                Map<String, long[]> tuplesBefore = Seeder.tupleStats(HOT_TABLES);
                if (workloads.contains("cost")) {
                    cost(tag, profile);
                }
                if (workloads.contains("ab")) {
                    ab(tag);
                }
                if (workloads.contains("cost") || workloads.contains("ab")) {
                    hotLine(tag, tuplesBefore);
                }
                if (workloads.contains("flow")) {
                    checkout(tag, List.of(a), profile ? "checkout-1" : null);
                    checkout(tag, List.of(a, b), null);
                }
                if (workloads.contains("webhooks")) {
                    webhooks(tag, List.of(a), profile ? "webhooks-1" : null);
                    webhooks(tag, List.of(a, b), null);
                }
                if (workloads.contains("stripe")) {
                    stripe(tag, List.of(a), profile ? "stripe-1" : null);
                    stripe(tag, List.of(a, b), null);
                }
                if (workloads.contains("sweep")) {
                    sweep(tag, level, profile ? "sweep-2" : null);
                }
                if (workloads.contains("sweepab")) {
                    sweepAb(tag);
                }
                if (workloads.contains("latency")) {
                    latency(tag);
                }
            }
            if (workloads.contains("pool")) {
                poolCheck();
            }
            if (workloads.contains("probe")) {
                probe(props);
            }
            line(String.format("heap after GC at end: instance-a %.1f MiB, instance-b %.1f MiB", a.heapAfterGcMiB(),
                    b.heapAfterGcMiB()));
            line(threadLine("at end"));
        } finally {
            if (a != null) {
                a.close();
            }
            if (b != null) {
                b.close();
            }
            sim.close();
        }
        uptime("pgbench (end)");
        double tpsEnd = pgbench.tps();
        pgbench.drop();
        line(String.format("pgbench -N -c 8 -j 2 -T 20 (end): %.0f tps", tpsEnd));
        double tps = (tpsStart + tpsEnd) / 2;
        line(String.format("%n== summary (ratios to the mean pgbench figure, %.0f tps) ==", tps));
        for (String s : summary) {
            String[] f = s.split("\\|");
            double value = Double.parseDouble(f[1]);
            line(String.format("%-44s %8.0f /s  = %.3f x pgbench  %s", f[0], value, value / tps, f.length > 2 ? f[2] : ""));
        }
        line(String.format("%n== CPU per operation (after the JIT warm-up; service = the instance JVM(s) that took the load, "
                + "PostgreSQL = the backends of this run's database, all postgres = every postgres process on the machine) =="));
        line(String.format("%-36s %-5s %6s %8s %7s %9s %8s %10s %-17s %s", "workload", "rows", "ops", "ops/s", "x pgbench",
                "svc ms/op", "pg ms/op", "allpg ms/op", "threads A", "load avg"));
        for (String[] c : costs) {
            line(String.format("%-36s %-5s %6s %8s %7.3f %9s %8s %10s %-17s %s", c[0], c[1], c[2], c[3],
                    Double.parseDouble(c[3]) / tps, c[4], c[5], c[6], c[7], c[8]));
        }
        for (String name : List.of("checkout-1", "webhooks-1", "stripe-1", "sweep-2", "sweep-1", "cost-checkout", "cost-webhook",
                "cost-duplicate", "cost-stripe-billing")) {
            Path file = DIR.resolve(name + ".jfr");
            if (Files.exists(file)) {
                line("\nJFR " + name + " (instance-a): " + JfrSummary.summarize(file));
            }
        }
        Files.writeString(DIR.resolve("service-benchmark.txt"), report);
        System.out.println("\n" + report);
        jfr.clear();
    }

    // ---- CPU per operation: one request type at a time, 8 keep-alive clients, instance A only

    private void cost(String tag, boolean profile) throws Exception {
        cost(tag, profile, a);
    }

    /** Every request type, one at a time, on {@code target}: its CPU and our database's per op. */
    private void cost(String tag, boolean profile, ServiceProcess target) throws Exception {
        String prefix = "cc" + sequence.incrementAndGet() + "_";
        String[] refs = new String[ops];
        BenchProvider.Hook[] hooks = new BenchProvider.Hook[ops];
        costRun(target, "GET /actuator/health", tag, null,
                i -> Client.get(target.url() + "/actuator/health").statusCode() == 200);
        costRun(target, "POST /api/orders", tag, null, i -> {
            refs[i] = prefix + i;
            return Client.post(target.url() + "/api/orders", """
                    {"orderRef":"%s","amount":"10.00","currency":"EUR","customer":{"referenceId":"c-%s","email":"a@b.test"}}"""
                    .formatted(refs[i], refs[i]), "Authorization", SHOP).statusCode() == 201;
        });
        costRun(target, "GET /api/orders/{ref}", tag, null,
                i -> Client.get(target.url() + "/api/orders/" + refs[i], "Authorization", SHOP).statusCode() == 200);
        costRun(target, "POST /api/orders/{ref}/checkout", tag, profile ? "cost-checkout" : null,
                i -> checkOutKeepingWebhook(target.url(), refs[i], hooks, i));
        costRun(target, "PSP webhook, applied", tag, profile ? "cost-webhook" : null, i -> hooks[i] != null
                && PROVIDER.applied(hooks[i].post(target.url()).body()));
        costRun(target, "PSP webhook, duplicate", tag, profile ? "cost-duplicate" : null, i -> hooks[i] != null
                && PROVIDER.duplicate(hooks[i].post(target.url()).body()));
        // billing's Stripe event (a renewal's invoice.paid, as the ingest workload sends), then its redelivery
        String[][] events = new String[ops][];
        long signedAt = System.currentTimeMillis() / 1000; // both runs end well inside Stripe's 300 s tolerance
        costRun(target, "Stripe billing event, applied", tag, profile ? "cost-stripe-billing" : null, i -> {
            events[i] = stripeEvent(prefix, i, signedAt);
            HttpResponse<String> r = Client.post(target.url() + "/webhooks/stripe", events[i][0], "Stripe-Signature",
                    events[i][1]);
            return r.statusCode() == 200 && !r.body().contains("duplicate");
        });
        costRun(target, "Stripe billing event, duplicate", tag, null, i -> {
            HttpResponse<String> r = Client.post(target.url() + "/webhooks/stripe", events[i][0], "Stripe-Signature",
                    events[i][1]);
            return r.statusCode() == 200 && r.body().contains("duplicate");
        });
    }

    private static final List<String> HOT_TABLES = List.of("orders", "psp_attempt", "outbox", "psp_webhook_event");

    /**
     * Updates and HOT updates of the hot tables over the level's CPU-per-op workloads (every checkout is a claim
     * insert and two updates, every applied webhook two more): a non-HOT update writes an entry in every index of
     * the table, a HOT one none.
     */
    private void hotLine(String tag, Map<String, long[]> before) throws Exception {
        Thread.sleep(11_000); // the instances' backends flush their counters when idle for 10 s
        Map<String, long[]> after = Seeder.tupleStats(HOT_TABLES);
        StringBuilder text = new StringBuilder("tuples written @" + tag + " over the CPU-per-op workloads (pg_stat_user_tables):");
        for (String table : HOT_TABLES) {
            long[] x = before.getOrDefault(table, new long[3]);
            long[] y = after.getOrDefault(table, new long[3]);
            long upd = y[1] - x[1];
            long hot = y[2] - x[2];
            text.append(String.format("%n  %-18s inserted %,8d  updated %,8d  HOT %,8d (%.1f %%)", table, y[0] - x[0], upd, hot,
                    upd == 0 ? 0.0 : 100.0 * hot / upd));
        }
        line(text.toString());
    }

    /** A and B in turn, A B B A per two rounds, then each side's CPU per op over all its rounds. */
    private void ab(String tag) throws Exception {
        abTotals.clear();
        cost(tag + " JIT pass A", false, a);
        cost(tag + " JIT pass B", false, b);
        abTotals.clear();
        for (int round = 0; round < AB_ROUNDS; round++) {
            List<ServiceProcess> order = round % 2 == 0 ? List.of(a, b) : List.of(b, a);
            for (ServiceProcess target : order) {
                Map<String, long[]> tuples = round == 0 ? Seeder.tupleStats(HOT_TABLES) : null;
                cost(tag + " round " + (round + 1) + " " + target.name, false, target);
                if (tuples != null) { // each side's own writes once, in the first round
                    hotLine(tag + " round 1, " + target.name + " only", tuples);
                }
            }
        }
        line(String.format("%n== A/B @%s over %d rounds: service / PostgreSQL ms per op (A: this build; B: %s%s) ==", tag,
                AB_ROUNDS, B_BUILD.isBlank() ? "this build" : B_BUILD, B_PROPS.isBlank() ? "" : ", " + B_PROPS));
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        abTotals.keySet().forEach(k -> names.add(k.substring(0, k.indexOf('|'))));
        for (String workload : names) {
            double[] x = abTotals.get(workload + "|instance-a");
            double[] y = abTotals.get(workload + "|instance-b");
            line(String.format("%-36s A %5.2f / %5.2f   B %5.2f / %5.2f   A/B %.2f (%,.0f and %,.0f ops)", workload,
                    x[1] / x[0], x[2] / x[0], y[1] / y[0], y[2] / y[0], (x[1] / x[0]) / (y[1] / y[0]), x[0], y[0]));
        }
    }

    interface Op {
        boolean run(int i) throws Exception;
    }

    /** {@code ops} operations by {@code costClients} clients; CPU of instance A and of our database per op. */
    private void costRun(ServiceProcess target, String workload, String tag, String jfrName, Op op) throws Exception {
        String label = workload + " @" + tag;
        AtomicInteger next = new AtomicInteger();
        long threadsBefore = target.threads();
        long startedBefore = target.threadsStarted();
        String load = loadAverage();
        Load run = new Load(label);
        Map<String, Long> ticksBefore = threadTicks(target.pid());
        begin(label, jfrName);
        double rate = run.run(costClients, 0, 0, (thread, l) -> {
            int i = next.getAndIncrement();
            if (i >= ops) {
                return false;
            }
            if (!op.run(i)) {
                l.error(workload + " #" + i + " answered unexpectedly");
            }
            return true;
        });
        String cpuLine = end(jfrName);
        // the JIT's and GC's share beside the request threads'
        cpuLine += "\n  " + target.name + " by thread, ms per op: " + byThread(ticksBefore, threadTicks(target.pid()),
                run.done());
        long threadsAfter = target.threads();
        long started = target.threadsStarted() - startedBefore; // jcmd's Attach Listener exists since the first call
        long n = run.done();
        String row = String.format("%s: %d ops in %.1f s = %.0f/s, errors %d; service %.2f ms/op, PostgreSQL %.2f ms/op "
                + "(all postgres %.2f); %s threads %d -> %d, %d started%n  cpu: %s", label, n, run.seconds, rate,
                run.errors(), cpu.msPerOp(target.name, n), cpu.msPerOp("database", n), cpu.msPerOp("postgres", n),
                target.name, threadsBefore, threadsAfter, started, cpuLine);
        line(row);
        abTotals.computeIfAbsent(workload + "|" + target.name, k -> new double[3]);
        double[] total = abTotals.get(workload + "|" + target.name);
        total[0] += n;
        total[1] += cpu.msPerOp(target.name, n) * n;
        total[2] += cpu.msPerOp("database", n) * n;
        costs.add(new String[] { workload, tag, Long.toString(n), String.format("%.0f", rate),
                String.format("%.2f", cpu.msPerOp(target.name, n)), String.format("%.2f", cpu.msPerOp("database", n)),
                String.format("%.2f", cpu.msPerOp("postgres", n)),
                threadsBefore + "->" + threadsAfter + " +" + started, load });
    }

    private void costRow(String workload, String tag, long n, double rate, double serviceMs, String load, String threads) {
        costs.add(new String[] { workload, tag, Long.toString(n), String.format("%.0f", rate), String.format("%.2f", serviceMs),
                String.format("%.2f", cpu.msPerOp("database", n)), String.format("%.2f", cpu.msPerOp("postgres", n)),
                threads, load });
    }

    /** Service CPU per op: instance A alone when it took the load alone (B idles), else both. */
    private double service(List<ServiceProcess> instances, long n) {
        return instances.size() == 1 ? cpu.msPerOp("instance-a", n) : cpu.serviceMsPerOp(n);
    }

    // ---- a third instance, jobs at their default intervals: idle CPU, then statements per operation

    private void probe(List<String> props) throws Exception {
        List<String> probeProps = new ArrayList<>(props.stream().filter(p -> !p.startsWith("payments.sweep.")).toList());
        probeProps.addAll(Probe.JOBS_AT_DEFAULTS);
        try (Probe probe = new Probe(ServiceProcess.start("instance-c", DIR, probeProps), DIR.resolve("instance-c.log"))) {
            probe.instance.awaitHealthy(Duration.ofMinutes(10));
            Thread.sleep(30_000); // start-up work (JIT, first job runs) settles
            String load = loadAverage();
            int idleSeconds = Integer.getInteger("bench.idle-seconds", 30);
            double idle = probe.idlePercentOfCore(idleSeconds);
            line(String.format("%nidle: instance-c (no traffic, every job at its default interval, outbox relay on) used "
                    + "%.2f %% of one core over %d s (load average %s); threads %d", idle, idleSeconds, load,
                    probe.instance.threads()));
            String url = probe.instance.url();
            String prefix = "sc" + sequence.incrementAndGet() + "_";
            int n = 20;
            BenchProvider.Hook[] hooks = new BenchProvider.Hook[n];
            line("statements per operation (driver trace of request threads, one client, " + n + " operations each):");
            line("  " + probe.count("POST /api/orders", n, i -> Client.post(url + "/api/orders", """
                    {"orderRef":"%s","amount":"10.00","currency":"EUR","customer":{"referenceId":"c-%s","email":"a@b.test"}}"""
                    .formatted(prefix + i, prefix + i), "Authorization", SHOP).statusCode() == 201));
            line("  " + probe.count("GET /api/orders/{ref}", n,
                    i -> Client.get(url + "/api/orders/" + prefix + i, "Authorization", SHOP).statusCode() == 200));
            line("  " + probe.count("POST /api/orders/{ref}/checkout", n,
                    i -> checkOutKeepingWebhook(url, prefix + i, hooks, i)));
            line("  " + probe.count("PSP webhook, applied", n, i -> hooks[i] != null
                    && PROVIDER.applied(hooks[i].post(url).body())));
            line("  " + probe.count("PSP webhook, duplicate", n, i -> hooks[i] != null
                    && PROVIDER.duplicate(hooks[i].post(url).body())));
        }
    }

    private String threadLine(String when) throws Exception {
        return String.format("threads %s: instance-a %d live (%d started so far), instance-b %d live (%d started so far)", when,
                a.threads(), a.threadsStarted(), b.threads(), b.threadsStarted());
    }

    private static String loadAverage() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    // ---- checkout: create + checkout (PSP create at the simulator) + signed COMPLETED webhook

    private void checkout(String tag, List<ServiceProcess> instances, String jfrName) throws Exception {
        String label = "checkout x" + instances.size() + " @" + tag;
        String prefix = "co" + sequence.incrementAndGet() + "_";
        AtomicLong n = new AtomicLong();
        Load load = new Load(label);
        String loadAvg = loadAverage();
        begin(label, jfrName);
        PoolSampler pool = new PoolSampler(instances);
        double rate = load.run(clients, warmup, seconds,
                (thread, l) -> flow(instances.get(thread % instances.size()), prefix + n.incrementAndGet(), l));
        String cpuLine = end(jfrName) + "\n  " + pool.stop();
        // the CPU window includes the warm-up, so it is divided by every flow started in it
        costRow("flow: create+checkout+webhook x" + instances.size(), tag, n.get(), rate, service(instances, n.get()),
                loadAvg, "");
        double[] c = load.percentilesMs("checkout");
        double[] f = load.percentilesMs("flow");
        line(String.format("%s: %.0f orders/s (%d in %.1f s, errors %d); checkout call p50 %.1f ms p99 %.1f ms; "
                + "whole flow (3 calls) p50 %.1f ms p99 %.1f ms%n  cpu: %s", label, rate, load.done(), load.seconds,
                load.errors(), c[0], c[1], f[0], f[1], cpuLine));
        summary.add(label + " (orders/s, needs 3 commits)|" + rate + "|target >= 0.25");
    }

    private void warmUp() throws Exception {
        String prefix = "wu" + sequence.incrementAndGet() + "_";
        AtomicLong n = new AtomicLong();
        List<ServiceProcess> both = List.of(a, b);
        new Load("warm-up (not counted)").run(clients, 0, Integer.getInteger("bench.jit-warmup", 20),
                (thread, l) -> flow(both.get(thread % 2), prefix + n.incrementAndGet(), l));
    }

    private boolean flow(ServiceProcess instance, String ref, Load load) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = Client.post(instance.url() + "/api/orders", """
                {"orderRef":"%s","amount":"10.00","currency":"EUR","customer":{"referenceId":"c-%s","email":"a@b.test"}}"""
                .formatted(ref, ref), "Authorization", SHOP);
        long t1 = System.nanoTime();
        if (r.statusCode() != 201) {
            load.error("create " + r.statusCode() + " " + r.body());
            return true;
        }
        load.record("create", t1 - t0);
        r = Client.post(instance.url() + "/api/orders/" + ref + "/checkout", "{}", "Authorization", SHOP);
        long t2 = System.nanoTime();
        if (r.statusCode() != 200) {
            load.error("checkout " + r.statusCode() + " " + r.body());
            return true;
        }
        load.record("checkout", t2 - t1);
        r = PROVIDER.hook(JSON.readTree(r.body()), ref).post(instance.url());
        long t3 = System.nanoTime();
        if (r.statusCode() != 200 || !PROVIDER.applied(r.body())) {
            load.error("webhook " + r.statusCode() + " " + r.body());
            return true;
        }
        load.record("webhook", t3 - t2);
        load.record("flow", t3 - t0);
        return true;
    }

    // ---- PSP webhook ingest: signed COMPLETED webhooks for seeded READY attempts, 20 % duplicates

    private void webhooks(String tag, List<ServiceProcess> instances, String jfrName) throws Exception {
        String label = "webhooks x" + instances.size() + " @" + tag;
        String prefix = "wh" + sequence.incrementAndGet() + "_";
        Seeder.webhookTargets(prefix, webhooks);
        List<String[]> tasks = new ArrayList<>();
        java.util.Random random = new java.util.Random(42);
        for (int g = 1; g <= webhooks; g++) {
            tasks.add(signed(prefix, g));
            if (g % 5 == 0) {
                tasks.add(signed(prefix, g - random.nextInt(5))); // a duplicate of a recent one
            }
        }
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        Pass pass = sendEach(label, jfrName, instances, tasks, (i, instance, task, l) -> {
            long t0 = System.nanoTime();
            HttpResponse<String> r = Client.post(instance.url() + "/webhooks/psp", task[0], "Signature", task[1]);
            l.record("webhook", System.nanoTime() - t0);
            if (r.statusCode() != 200) {
                l.error("webhook " + r.statusCode() + " " + r.body());
            } else {
                outcomes.computeIfAbsent(JSON.readTree(r.body()).path("status").asString(), k -> new AtomicInteger())
                        .incrementAndGet();
            }
        });
        Load load = pass.load();
        double rate = pass.rate();
        String loadAvg = pass.loadAvg();
        String cpuLine = pass.cpuLine();
        costRow("webhook ingest 20% dup x" + instances.size(), tag, load.done(), rate, service(instances, load.done()), loadAvg, "");
        long paid = Seeder.count("SELECT count(*) FROM orders WHERE status = 'PAID' AND order_ref LIKE ?", prefix + "%");
        double[] p = load.percentilesMs("webhook");
        line(String.format("%s: %.0f webhooks/s (%d requests in %.1f s, outcomes %s, errors %d, orders PAID %d of %d); "
                + "p50 %.1f ms p99 %.1f ms%n  cpu: %s", label, rate, load.done(), load.seconds, outcomes, load.errors(),
                paid, webhooks, p[0], p[1], cpuLine));
        assertThat(paid).isEqualTo(webhooks);
        summary.add(label + " (webhooks/s, needs 1 commit)|" + rate + "|target >= 0.50");
    }

    /** Sends one task of a signed delivery to an instance (round-robin by index), recording on {@code load}. */
    private interface Delivery {
        void send(int index, ServiceProcess instance, String[] task, Load load) throws Exception;
    }

    /** What one pass of {@link #sendEach} measured; {@code loadAvg} was read before it began. */
    private record Pass(Load load, double rate, String loadAvg, String cpuLine) {
    }

    /** Every task sent once, by {@code clients} threads taking the next one, under the CPU window and pool sampler. */
    private Pass sendEach(String label, String jfrName, List<ServiceProcess> instances, List<String[]> tasks,
            Delivery delivery) throws Exception {
        AtomicInteger next = new AtomicInteger();
        Load load = new Load(label);
        String loadAvg = loadAverage();
        begin(label, jfrName);
        PoolSampler pool = new PoolSampler(instances);
        double rate = load.run(clients, 0, 0, (thread, l) -> {
            int i = next.getAndIncrement();
            if (i >= tasks.size()) {
                return false;
            }
            delivery.send(i, instances.get(i % instances.size()), tasks.get(i), l);
            return true;
        });
        String cpuLine = end(jfrName) + "\n  " + pool.stop();
        return new Pass(load, rate, loadAvg, cpuLine);
    }

    private String[] signed(String prefix, int g) {
        String body = payment("pay_" + prefix + g, "chk_" + prefix + g);
        return new String[] { body, sign(body) };
    }

    // ---- Stripe ingest: signed invoice.paid (subscription_cycle) events, each a new grant; 20 % duplicates

    private void stripe(String tag, List<ServiceProcess> instances, String jfrName) throws Exception {
        String label = "stripe x" + instances.size() + " @" + tag;
        String prefix = "st" + sequence.incrementAndGet() + "_";
        long t = System.currentTimeMillis() / 1000; // signatures stay valid for 300 s
        List<String[]> tasks = new ArrayList<>();
        Map<Integer, Integer> distinct = new java.util.HashMap<>(); // task index of each event's first sending -> g
        java.util.Set<Integer> copied = new java.util.HashSet<>(); // events also sent a second time
        java.util.Random random = new java.util.Random(7);
        for (int g = 1; g <= webhooks; g++) {
            distinct.put(tasks.size(), g);
            tasks.add(stripeEvent(prefix, g, t));
            if (g % 5 == 0) {
                int copy = g - random.nextInt(5);
                copied.add(copy);
                tasks.add(stripeEvent(prefix, copy, t));
            }
        }
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        // the answer to each distinct event's first delivery: Stripe backs off for hours after a 5xx
        // (a 503 stripe-event-in-flight there means its own copy overtook it and was being processed)
        Map<String, AtomicInteger> firstDelivery = new ConcurrentHashMap<>();
        Pass pass = sendEach(label, jfrName, instances, tasks, (i, instance, task, l) -> {
            long t0 = System.nanoTime();
            HttpResponse<String> r = null;
            // as Stripe redelivers: 503 (the same event in flight elsewhere) and 500 (released after
            // serialization retries ran out) are tried again, here after 20-100 ms, at most 20 times
            for (int attempt = 0; attempt < 21; attempt++) {
                if (attempt > 0) {
                    outcomes.computeIfAbsent("redelivered after " + r.statusCode(), k -> new AtomicInteger())
                            .incrementAndGet();
                    Thread.sleep(20 + java.util.concurrent.ThreadLocalRandom.current().nextInt(80));
                }
                r = Client.post(instance.url() + "/webhooks/stripe", task[0], "Stripe-Signature", task[1]);
                if (attempt == 0 && distinct.containsKey(i)) {
                    String answer = r.statusCode() == 200 ? "200"
                            : r.statusCode() + " " + JSON.readTree(r.body()).path("type").asString("").replaceAll(".*/", "")
                                    + (copied.contains(distinct.get(i)) ? " (event also sent as a copy)" : " (no copy)");
                    firstDelivery.computeIfAbsent(answer, k -> new AtomicInteger()).incrementAndGet();
                }
                if (r.statusCode() != 500 && r.statusCode() != 503) {
                    break;
                }
            }
            l.record("event", System.nanoTime() - t0);
            if (r.statusCode() != 200) {
                l.error("stripe " + r.statusCode() + " " + r.body());
            } else {
                outcomes.computeIfAbsent(r.body().contains("duplicate") ? "duplicate" : "received",
                        k -> new AtomicInteger()).incrementAndGet();
            }
        });
        Load load = pass.load();
        double rate = pass.rate();
        String loadAvg = pass.loadAvg();
        String cpuLine = pass.cpuLine();
        costRow("stripe ingest 20% dup x" + instances.size() + " (per request)", tag, load.done(), rate,
                service(instances, load.done()), loadAvg, "");
        long grants = Seeder.count("SELECT count(*) FROM processed_webhook_events WHERE state = 'completed' AND id LIKE ?",
                "evt_" + prefix + "%");
        double[] p = load.percentilesMs("event");
        line(String.format("%s: %.0f requests/s (%d requests, distinct events and duplicates, in %.1f s, answers %s, errors %d, "
                + "events completed %d of %d); "
                + "p50 %.1f ms p99 %.1f ms%n  cpu: %s", label, rate, load.done(), load.seconds, outcomes, load.errors(),
                grants, webhooks, p[0], p[1], cpuLine));
        long firstDelivery5xx = firstDelivery.entrySet().stream().filter(e -> e.getKey().startsWith("5"))
                .filter(e -> !e.getKey().contains("stripe-event-in-flight (event also sent as a copy)"))
                .mapToLong(e -> e.getValue().get()).sum();
        line(String.format("  first delivery of the %d distinct events: answers %s; 5xx other than a 503 while the "
                + "event's own copy was in flight: %d", webhooks, firstDelivery, firstDelivery5xx));
        summary.add(label + " (events/s, needs 2 commits)|" + (grants / load.seconds) + "|target >= 0.35 (events completed/s)");
    }

    /** Ids as Stripe's look: random, so keys of concurrent events do not sit side by side in an index. */
    private static String[] stripeEvent(String prefix, int g, long t) {
        // -Dbench.stripe.sequential-ids=true: ids side by side (st6_1, st6_2, …), the worst case for SSI page locks
        String id = Boolean.getBoolean("bench.stripe.sequential-ids") ? prefix + g
                : prefix + java.util.UUID.nameUUIDFromBytes((prefix + g).getBytes(StandardCharsets.UTF_8)).toString()
                        .replace("-", "").substring(0, 16);
        String body = """
                {"id":"evt_%1$s","object":"event","type":"invoice.paid","created":%2$d,
                 "data":{"object":{"id":"in_%1$s","object":"invoice","billing_reason":"subscription_cycle",
                  "amount_paid":2900,"currency":"eur","metadata":{"conversionEventId":"conv_%1$s"},
                  "parent":{"type":"subscription_details",
                            "subscription_details":{"subscription":"sub_%1$s","metadata":{"userId":"user_%1$s"}}},
                  "lines":{"object":"list","data":[{"id":"il_%1$s","object":"line_item","amount":2900,
                    "parent":{"type":"subscription_item_details",
                              "subscription_item_details":{"proration":false,"subscription":"sub_%1$s"}},
                    "period":{"start":1738281600,"end":1740873600}}]}}}}""".formatted(id, t);
        return new String[] { body, "t=" + t + ",v1=" + hmac(STRIPE_SECRET, t + "." + body) };
    }

    // ---- sweep: 2 instances resolve seeded UNKNOWN attempts; the simulator knows each reference

    private boolean sweepWarm;
    /**
     * -Dbench.sweep-warmup=3: untimed sweep passes (each of {@code bench.sweep} attempts) on each instance before
     * a sweep is measured. The flows of the warm-up never run the sweep's code, and one pass was not enough: a
     * recording after it still showed C2 taking the largest share of the window.
     */
    private static final int SWEEP_WARMUPS = Integer.getInteger("bench.sweep-warmup", 3);

    private void sweep(String tag, int level, String jfrName) throws Exception {
        if (!sweepWarm) {
            sweepWarm = true;
            for (int pass = 1; pass <= SWEEP_WARMUPS; pass++) {
                sweepRun("sweep x2 @" + tag + " JIT pass " + pass, List.of(a, b), null, false);
            }
        }
        String label = "sweep x2 @" + tag;
        String prefix = "sw" + sequence.incrementAndGet() + "_";
        Seeder.unknownAttempts(prefix, unknowns);
        createAtSimulator(prefix);
        Map<String, String> values = Plans.defaults();
        values.put("orderId", Long.toString(Seeder.count(
                "SELECT order_id FROM psp_attempt WHERE state = 'UNKNOWN' LIMIT 1")));
        values.put("paymentId", "'pay_h1_1'");
        values.put("leaseSeconds", "0"); // the seeded backlog is inside the lease; 0 lets the claim see all of it
        String plans = Plans.explainAll(values);
        Files.writeString(DIR.resolve("plans-" + (level == 0 ? "10e4" : "10e5") + ".txt"), plans);
        line("plans of the hot statements written to target/benchmarks/plans-" + (level == 0 ? "10e4" : "10e5") + ".txt");
        sweepRun(label, prefix, List.of(a, b), jfrName, true);
    }

    /**
     * -Dbench.workloads=sweepab: the sweep on ONE instance at a time, A and B in turn (A B B A per two
     * rounds), the other instance paused with SIGSTOP so it claims nothing (each build sweeps its own
     * batches); {@code bench.sweep-warmup} untimed passes on each first. Service = the sweeping instance's
     * CPU, PostgreSQL = this run's backends, per attempt, summed over all of a side's rounds.
     */
    private void sweepAb(String tag) throws Exception {
        for (ServiceProcess target : List.of(a, b)) {
            for (int pass = 1; pass <= SWEEP_WARMUPS; pass++) {
                sweepAlone("sweep x1 @" + tag + " JIT pass " + pass + " " + target.name, target);
            }
        }
        Map<String, double[]> totals = new LinkedHashMap<>();
        for (int round = 0; round < AB_ROUNDS; round++) {
            List<ServiceProcess> order = round % 2 == 0 ? List.of(a, b) : List.of(b, a);
            for (ServiceProcess target : order) {
                double[] r = sweepAlone("sweep x1 @" + tag + " round " + (round + 1) + " " + target.name, target);
                double[] t = totals.computeIfAbsent(target.name, k -> new double[3]);
                for (int i = 0; i < 3; i++) {
                    t[i] += r[i];
                }
            }
        }
        double[] x = totals.get("instance-a");
        double[] y = totals.get("instance-b");
        line(String.format("%n== sweep A/B @%s over %d rounds, one instance sweeping: service / PostgreSQL ms per attempt "
                + "(A: this build; B: %s%s) ==", tag, AB_ROUNDS, B_BUILD.isBlank() ? "this build" : B_BUILD,
                B_PROPS.isBlank() ? "" : ", " + B_PROPS));
        line(String.format("%-36s A %5.2f / %5.2f   B %5.2f / %5.2f   A/B %.2f / %.2f (%,.0f and %,.0f attempts)",
                "sweep of UNKNOWN attempts x1", x[1] / x[0], x[2] / x[0], y[1] / y[0], y[2] / y[0],
                (x[1] / x[0]) / (y[1] / y[0]), (x[2] / x[0]) / (y[2] / y[0]), x[0], y[0]));
        if (RECORD) { // after the rounds, so the recording's overhead is in none of them
            sweepAlone("sweep x1 @" + tag + " recorded (JFR) instance-a", a, "sweep-1");
        }
    }

    /** One sweep of a fresh backlog by {@code target} alone, the other instance stopped meanwhile. */
    private double[] sweepAlone(String label, ServiceProcess target) throws Exception {
        return sweepAlone(label, target, null);
    }

    private double[] sweepAlone(String label, ServiceProcess target, String jfrName) throws Exception {
        ServiceProcess other = target == a ? b : a;
        signal(other, "STOP");
        try {
            return sweepRun(label, List.of(target), jfrName, false);
        } finally {
            signal(other, "CONT");
        }
    }

    private static void signal(ServiceProcess instance, String signal) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(instance.pid())).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + instance.pid() + " failed");
        }
    }

    private double[] sweepRun(String label, List<ServiceProcess> sweepers, String jfrName, boolean row) throws Exception {
        String prefix = "sw" + sequence.incrementAndGet() + "_";
        Seeder.unknownAttempts(prefix, unknowns);
        createAtSimulator(prefix);
        return sweepRun(label, prefix, sweepers, jfrName, row);
    }

    /**
     * Releases the seeded backlog {@code prefix} to {@code sweepers} and waits until none is UNKNOWN; returns
     * {attempts, service CPU ms (the sweepers), PostgreSQL CPU ms (this run's backends)}.
     */
    private double[] sweepRun(String label, String prefix, List<ServiceProcess> sweepers, String jfrName, boolean row)
            throws Exception {
        double[] before = new double[sweepers.size()];
        for (int i = 0; i < before.length; i++) {
            before[i] = resolved(sweepers.get(i));
        }
        String loadAvg = loadAverage();
        List<Map<String, Long>> threadsBefore = new ArrayList<>();
        for (ServiceProcess s : sweepers) {
            threadsBefore.add(threadTicks(s.pid()));
        }
        begin(label, jfrName);
        // the x2 workload's pool figure; the A/B's single-instance runs leave it out, as its scrapes of
        // /actuator/prometheus were a sixth of a recorded instance's samples (Tomcat), not the sweep's cost
        PoolSampler pool = row ? new PoolSampler(sweepers) : null;
        long start = System.nanoTime();
        Seeder.releaseUnknown(prefix);
        long open = unknowns;
        long lastPrint = start;
        while (open > 0) {
            Thread.sleep(100);
            open = Seeder.count("SELECT count(*) FROM psp_attempt WHERE state = 'UNKNOWN'");
            if (System.nanoTime() - lastPrint > 2e9) {
                lastPrint = System.nanoTime();
                System.out.printf("[bench %s] %s: %.0f s, %d of %d still UNKNOWN%n", Load.now(), label,
                        (lastPrint - start) / 1e9, open, unknowns);
            }
            if (System.nanoTime() - start > 600e9) {
                throw new IllegalStateException("sweep did not finish in 10 minutes");
            }
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        String cpuLine = end(jfrName) + (pool == null ? "" : "\n  " + pool.stop());
        for (int i = 0; i < sweepers.size(); i++) {
            cpuLine += "\n  " + sweepers.get(i).name + " by thread, ms per attempt: "
                    + byThread(threadsBefore.get(i), threadTicks(sweepers.get(i).pid()), unknowns);
        }
        StringBuilder by = new StringBuilder();
        for (int i = 0; i < before.length; i++) {
            by.append(i == 0 ? "" : ", ").append(sweepers.get(i).name).append(' ')
                    .append(String.format("%.0f", resolved(sweepers.get(i)) - before[i]));
        }
        long paid = Seeder.count("SELECT count(*) FROM orders WHERE status = 'PAID' AND order_ref LIKE ?", prefix + "%");
        long effects = Seeder.count("SELECT count(*) FROM outbox WHERE kind = 'order_paid' AND aggregate_id LIKE ?",
                prefix + "%");
        double rate = unknowns / elapsed;
        double serviceMs = 0;
        for (ServiceProcess s : sweepers) {
            serviceMs += cpu.msPerOp(s.name, 1);
        }
        if (row) {
            costRow("sweep of UNKNOWN attempts x" + sweepers.size(), label.substring(label.indexOf('@') + 1), unknowns,
                    rate, serviceMs / unknowns, loadAvg, "");
            summary.add(label + " (attempts/s, needs 1 commit)|" + rate + "|target >= 0.50");
        }
        line(String.format("%s: %d UNKNOWN attempts resolved in %.1f s = %.0f attempts/s; resolved by %s; orders PAID %d, "
                + "order_paid outbox rows %d; service %.2f ms/attempt, PostgreSQL %.2f ms/attempt%n  cpu: %s", label,
                unknowns, elapsed, rate, by, paid, effects, serviceMs / unknowns, cpu.msPerOp("database", unknowns),
                cpuLine));
        assertThat(paid).isEqualTo(unknowns);
        assertThat(effects).isEqualTo(unknowns);
        return new double[] { unknowns, serviceMs, cpu.msPerOp("database", 1) };
    }

    /**
     * CPU ticks of a JVM's threads grouped by name, digits folded ("C2 CompilerThreadN", "checkout-sweep-N"),
     * from /proc/<pid>/task: how much of a window was the JIT's, GC's and the sweep's own. A thread that ended
     * within the window is left out.
     */
    private static Map<String, Long> threadTicks(long pid) throws java.io.IOException {
        Map<String, Long> ticks = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "N");
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                } catch (java.io.IOException gone) {
                    // the thread ended meanwhile
                }
            }
        }
        return ticks;
    }

    /** "C2 CompilerThreN 1.20 · checkout-sweep-N 0.90 · …": the largest groups first, 10 ms ticks. */
    private static String byThread(Map<String, Long> before, Map<String, Long> after, long ops) {
        return after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0).sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(8)
                .map(e -> String.format("%s %.2f", e.getKey(), e.getValue() * 10.0 / ops))
                .collect(java.util.stream.Collectors.joining(" · "));
    }

    private void createAtSimulator(String prefix) throws Exception {
        HttpResponse<String> r = Client.post(simUrl + "/sim/faults",
                "{\"operation\":\"create\",\"fault\":\"settle\",\"state\":\"COMPLETED\"}", "Authorization", SIM_ADMIN);
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
        AtomicInteger next = new AtomicInteger();
        Load load = new Load("simulator payments for the sweep");
        load.run(8, 0, 0, (thread, l) -> {
            int g = next.incrementAndGet();
            if (g > unknowns) {
                return false;
            }
            HttpResponse<String> created = Client.post(simUrl + "/api/v1/payments", """
                    {"paymentType":"DEPOSIT","amount":"10.00","currency":"EUR","referenceId":"chk_%s%d"}"""
                    .formatted(prefix, g), "Authorization", "Bearer " + PSP_KEY);
            if (created.statusCode() != 200) {
                l.error("simulator create " + created.statusCode());
            }
            return true;
        });
        Client.delete(simUrl + "/sim/faults", "Authorization", SIM_ADMIN);
    }

    private static double resolved(ServiceProcess instance) throws Exception {
        return ServiceProcess.metric(instance.prometheus(), "payments_job_resolved_total", "task=\"checkout-sweep\"");
    }

    // ---- latency beyond the PSP's: the simulator answers create after 50 ms, 4 clients (-Dbench.latency-clients=1,4)

    private void latency(String tag) throws Exception {
        for (String n : System.getProperty("bench.latency-clients", "4").split(",")) {
            latency(tag, Integer.parseInt(n.strip()));
        }
    }

    private void latency(String tag, int clientCount) throws Exception {
        int psp = Integer.getInteger("bench.latency-psp-ms", 50);
        Client.post(simUrl + "/sim/faults", "{\"operation\":\"create\",\"fault\":\"latency\",\"delayMs\":" + psp + "}",
                "Authorization", SIM_ADMIN);
        String label = "checkout latency x1 @" + tag + " (PSP create " + psp + " ms, " + clientCount + " clients)";
        String prefix = "lt" + sequence.incrementAndGet() + "_";
        AtomicLong n = new AtomicLong();
        Load load = new Load(label);
        uptime(label);
        String[] before = serverSide(a);
        cpu.start();
        PoolSampler pool = new PoolSampler(List.of(a));
        load.run(clientCount, 2, 10, (thread, l) -> flow(a, prefix + n.incrementAndGet(), l));
        String cpuLine = cpu.stop() + "\n  " + pool.stop();
        String[] after = serverSide(a);
        long flows = n.get();
        // the PSP alone, as the harness sees it: the same clients posting the create to the simulator, so the
        // part of "overhead" that is the harness's client and the simulator's own handling shows beside it
        Load direct = new Load(label + ", the simulator's create called directly");
        direct.run(clientCount, 2, 10, (thread, l) -> {
            long t0 = System.nanoTime();
            HttpResponse<String> r = Client.post(simUrl + "/api/v1/payments", """
                    {"paymentType":"DEPOSIT","amount":"10.00","currency":"EUR","referenceId":"%s",                    "returnUrl":"https://shop.test/r","webhookUrl":"http://127.0.0.1:9/none"}"""
                    .formatted(prefix + "direct_" + n.incrementAndGet()), "Authorization", "Bearer " + PSP_KEY);
            l.record("create", System.nanoTime() - t0);
            if (r.statusCode() / 100 != 2) {
                l.error("direct create answered " + r.statusCode());
            }
            return true;
        });
        Client.delete(simUrl + "/sim/faults", "Authorization", SIM_ADMIN);
        double[] c = load.percentilesMs("checkout");
        double[] d = direct.percentilesMs("create");
        line(String.format("%s: checkout call p50 %.1f ms p90 %.1f ms p99 %.1f ms max %.1f ms -> service overhead p50 %.1f ms "
                + "p99 %.1f ms (%d flows, errors %d); the simulator's create called directly by the same %d clients: p50 %.1f "
                + "ms p90 %.1f ms p99 %.1f ms max %.1f ms (%d calls, errors %d) -> checkout beyond that p50 %.1f ms p99 %.1f "
                + "ms%n  create p50 / p99 %s ms, webhook p50 / p99 %s ms%n  cpu (flows incl. their 2 s warm-up, %d flows): "
                + "%s", label, c[0], c[2], c[1], c[3], c[0] - psp, c[1] - psp, load.done(), load.errors(), clientCount, d[0],
                d[2], d[1], d[3], direct.done(), direct.errors(), c[0] - d[0], c[1] - d[1],
                pair(load.percentilesMs("create")), pair(load.percentilesMs("webhook")), flows, cpuLine));
        line(serverSideLine(before, after));
    }

    private static final String CHECKOUT_URI = "uri=\"/api/orders/{orderRef}/checkout\"";

    /** What instance A's own meters say: the checkout's server timer, its PSP calls' client timer, GC pauses. */
    private static String[] serverSide(ServiceProcess instance) throws Exception {
        return new String[] { instance.prometheus() };
    }

    private static String serverSideLine(String[] before, String[] after) {
        double[] server = delta(before[0], after[0], "http_server_requests_seconds", CHECKOUT_URI);
        double[] psp = delta(before[0], after[0], "http_client_requests_seconds", "method=\"POST\"");
        double[] gc = delta(before[0], after[0], "jvm_gc_pause_seconds", null);
        return String.format("  instance A's own meters over the flows: checkout server timer mean %.1f ms (%,.0f calls, max "
                + "%.1f ms in the window); PSP POST client timer mean %.1f ms (%,.0f calls, max %.1f ms) -> the service's "
                + "own mean %.1f ms; GC pauses %,.0f totalling %.1f ms (max %.1f ms)", server[0], server[1], server[2],
                psp[0], psp[1], psp[2], server[0] - psp[0], gc[1], gc[3], gc[2]);
    }

    /** mean ms, count, max ms, total ms of a timer between two scrapes (max: the registry's own rolling maximum). */
    private static double[] delta(String before, String after, String timer, String filter) {
        double count = ServiceProcess.metric(after, timer + "_count", filter)
                - ServiceProcess.metric(before, timer + "_count", filter);
        double sum = ServiceProcess.metric(after, timer + "_sum", filter) - ServiceProcess.metric(before, timer + "_sum", filter);
        double max = 0;
        for (String l : after.split("\n")) {
            if (l.startsWith(timer + "_max{") && (filter == null || l.contains(filter))) {
                max = Math.max(max, Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)));
            }
        }
        return new double[] { count == 0 ? Double.NaN : 1000 * sum / count, count, 1000 * max, 1000 * sum };
    }

    private static String pair(double[] p) {
        return String.format("%.1f / %.1f", p[0], p[1]);
    }

    // ---- pool: 50 concurrent checkouts against a PSP answering in 2 s

    private void poolCheck() throws Exception {
        Client.post(simUrl + "/sim/faults", "{\"operation\":\"create\",\"fault\":\"latency\",\"delayMs\":2000}",
                "Authorization", SIM_ADMIN);
        String prefix = "pl" + sequence.incrementAndGet() + "_";
        List<String> refs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String ref = prefix + i;
            HttpResponse<String> r = Client.post(a.url() + "/api/orders", """
                    {"orderRef":"%s","amount":"10.00","currency":"EUR","customer":{"referenceId":"c"}}""".formatted(ref),
                    "Authorization", SHOP);
            assertThat(r.statusCode()).isEqualTo(201);
            refs.add(ref);
        }
        uptime("pool check");
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(50);
        AtomicInteger ok = new AtomicInteger();
        for (String ref : refs) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    if (Client.post(a.url() + "/api/orders/" + ref + "/checkout", "{}", "Authorization", SHOP)
                            .statusCode() == 200) {
                        ok.incrementAndGet();
                    }
                } catch (Exception e) {
                    System.out.println("[bench] pool check: " + e);
                } finally {
                    done.countDown();
                }
            });
            t.setDaemon(true);
            t.start();
        }
        long start = System.nanoTime();
        go.countDown();
        double maxActive = 0;
        double maxPending = 0;
        double maxActiveHeld = 0; // from 0.5 s to 1.9 s: every checkout is waiting on the PSP
        int samples = 0;
        StringBuilder series = new StringBuilder();
        while (done.getCount() > 0) {
            String text = a.prometheus();
            double t = (System.nanoTime() - start) / 1e9;
            double active = ServiceProcess.metric(text, "hikaricp_connections_active", null);
            double pending = ServiceProcess.metric(text, "hikaricp_connections_pending", null);
            maxActive = Math.max(maxActive, active);
            maxPending = Math.max(maxPending, pending);
            if (t >= 0.5 && t <= 1.9) {
                maxActiveHeld = Math.max(maxActiveHeld, active);
            }
            series.append(String.format(" %.1fs:%.0f/%.0f", t, active, pending));
            samples++;
            Thread.sleep(100);
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        String max = ServiceProcess.metric(a.prometheus(), "hikaricp_connections_max", null) + "";
        Client.delete(simUrl + "/sim/faults", "Authorization", SIM_ADMIN);
        line(String.format("%npool check: 50 concurrent checkouts, PSP create answering after 2 s: %d answered 200 in "
                + "%.1f s; hikaricp_connections_active max %.0f (max %.0f between 0.5 s and 1.9 s, while every call "
                + "waits on the PSP), hikaricp_connections_pending max %.0f over %d samples (pool size %s)%n"
                + "  samples (time:active/pending):%s", ok.get(), elapsed, maxActive, maxActiveHeld, maxPending, samples,
                max, series));
    }

    // ---- helpers

    private void begin(String label, String jfrName) throws Exception {
        uptime(label);
        if (jfrName != null) {
            List<String> args = new ArrayList<>(List.of("JFR.start", "name=" + jfrName, "settings=profile",
                    "filename=" + DIR.resolve(jfrName + ".jfr").toAbsolutePath(),
                    "jdk.Compilation#threshold=0ms")); // every compilation, so JfrSummary can total the JIT's time
            if (!JFR_SAMPLING.isBlank()) {
                args.add("method-profiling=" + JFR_SAMPLING);
            }
            a.jcmd(args.toArray(String[]::new));
        }
        cpu.start();
    }

    private String end(String jfrName) throws Exception {
        String line = cpu.stop();
        if (jfrName != null) {
            a.jcmd("JFR.stop", "name=" + jfrName);
        }
        return line;
    }

    /** Checks the order out on {@code url} and keeps, in {@code hooks[i]}, the signed webhook that completes its payment. */
    private static boolean checkOutKeepingWebhook(String url, String orderRef, BenchProvider.Hook[] hooks, int i)
            throws Exception {
        HttpResponse<String> r = Client.post(url + "/api/orders/" + orderRef + "/checkout", "{}", "Authorization", SHOP);
        if (r.statusCode() != 200) {
            return false;
        }
        hooks[i] = PROVIDER.hook(JSON.readTree(r.body()), orderRef);
        return true;
    }

    /** A Gateway payment object, as the signed webhook carries it. */
    static String payment(String id, String referenceId) {
        return """
                {"id":"%s","referenceId":"%s","paymentType":"DEPOSIT","state":"COMPLETED","amount":"10.00","currency":"EUR"}"""
                .formatted(id, referenceId);
    }

    static String sign(String body) {
        return hmac(SIGNING_KEY, body);
    }

    private static String hmac(String key, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void uptime(String what) throws Exception {
        line("[" + Load.now() + "] before " + what + ": uptime " + shell("uptime").strip());
    }

    private void line(String text) {
        report.append(text).append('\n');
        System.out.println(text);
    }

    private static String shell(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }
}
