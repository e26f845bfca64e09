package com.acme.payments.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.TestDatabase;

/**
 * The outbox relay's interleaved A/B (tag {@code benchmark}; docs/benchmarks.md):
 * CPU per delivered effect of the service JVM and of PostgreSQL's backends, this build (A) against
 * another commit's (B, {@code -Dbench.b-build=/path/to/checkout/service}, built), or this build again.
 * <p>
 * Two service JVMs ({@link ServiceProcess}, {@code -Xmx512m}, the test profile, the relay ON at a
 * 200 ms interval, shipped batch size and concurrency), each on a database of its own on one server, so
 * each relay sees only its own rows; one local sink in this JVM answering 200 at once, counting every
 * {@code Idempotency-Key}. A round inserts {@code bench.relay.rows} {@code renewal_notice} rows (distinct
 * aggregates) into one side's database, due one second later, then measures from just before they are
 * due until none is pending: {@code utime + stime} of that side's JVM ({@code /proc/<pid>/stat}) and of
 * the backends connected to its database (the harness's own connection left out), per row. Warm-up
 * rounds on both sides first (the JIT settled, not measured), then {@code bench.ab-rounds} pairs in the
 * order A B B A A B ..., so the machine's load weighs on both alike; each key must reach the sink once.
 * <pre>
 * ./mvnw -q -pl service -am test -Pbenchmark -Dtest=RelayAbBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dbench.b-build=/work/wt/before/service
 * </pre>
 */
@Tag("benchmark")
class RelayAbBenchmark {

    private static final Path DIR = Path.of("target", "benchmarks");
    private static final int ROWS = Integer.getInteger("bench.relay.rows", 4000);
    private static final int WARMUP_ROUNDS = Integer.getInteger("bench.relay.warmup-rounds", 6);
    private static final int AB_ROUNDS = Integer.getInteger("bench.ab-rounds", 4);
    private static final String B_BUILD = System.getProperty("bench.b-build", "");
    private static final long TICKS_PER_SECOND = 100;
    /**
     * -Dbench.relay.jfr=true: record instance A (JFR, profile settings) over the measured rounds and print
     * where its CPU went; a recorded run says where the time goes, an unrecorded one what it costs.
     */
    private static final boolean RECORD = Boolean.getBoolean("bench.relay.jfr");

    private final CountingSink sink = new CountingSink();
    private final StringBuilder report = new StringBuilder();

    /** One side: its instance, its database, the harness's connection to it (left out of the count). */
    private record Side(String name, ServiceProcess instance, String database, Connection harness, int harnessPid,
            double[] totals) {
    }

    @Test
    void relayCpuPerEffectAB() throws Exception {
        Files.createDirectories(DIR);
        line("== outbox relay A/B, " + java.time.Instant.now() + "; A: this build, B: "
                + (B_BUILD.isBlank() ? "this build" : B_BUILD) + " ==");
        line(String.format("rows per round %d, warm-up rounds %d per side, measured rounds %d per side; nproc %d",
                ROWS, WARMUP_ROUNDS, AB_ROUNDS, Runtime.getRuntime().availableProcessors()));
        TestDatabase.url(); // the server first: developmentUrl alone would start one that url() then replaces
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        List<Side> sides = new ArrayList<>();
        try {
            sides.add(side("instance-a", "relay_bench_a_" + suffix, null));
            sides.add(side("instance-b", "relay_bench_b_" + suffix, B_BUILD.isBlank() ? null : Path.of(B_BUILD)));
            Side a = sides.get(0);
            Side b = sides.get(1);
            for (int i = 1; i <= WARMUP_ROUNDS; i++) {
                round(a, "warm-up " + i, false);
                round(b, "warm-up " + i, false);
            }
            Path recording = DIR.resolve("relay-a.jfr").toAbsolutePath();
            if (RECORD) {
                a.instance().jcmd("JFR.start", "name=relay", "settings=profile", "filename=" + recording);
            }
            for (int i = 0; i < AB_ROUNDS; i++) {
                for (Side side : i % 2 == 0 ? List.of(a, b) : List.of(b, a)) {
                    round(side, "round " + (i + 1), true);
                }
            }
            if (RECORD) {
                a.instance().jcmd("JFR.stop", "name=relay");
                line("instance A recorded (its figures above are inflated by the recording):\n"
                        + JfrSummary.summarize(recording));
            }
            line(String.format("%n== A/B over %d rounds each, %d rows per round: JVM / PostgreSQL ms per effect ==",
                    AB_ROUNDS, ROWS));
            for (Side side : sides) {
                double[] t = side.totals();
                line(String.format("%s: JVM %.3f ms, PostgreSQL %.3f ms per effect (%,.0f effects, %.1f s)",
                        side.name(), t[1] / t[0], t[2] / t[0], t[0], t[3]));
            }
            double[] x = a.totals();
            double[] y = b.totals();
            line(String.format("A/B: JVM %.2f, PostgreSQL %.2f", (x[1] / x[0]) / (y[1] / y[0]),
                    (x[2] / x[0]) / (y[2] / y[0])));
        } finally {
            for (Side side : sides) {
                side.instance().close();
                side.harness().close();
            }
            try (Connection admin = TestDatabase.connect(); Statement s = admin.createStatement()) {
                for (Side side : sides) {
                    s.execute("DROP DATABASE IF EXISTS " + side.database() + " WITH (FORCE)");
                }
            }
            sink.stop();
            Files.writeString(DIR.resolve("relay-ab.txt"), report);
        }
    }

    private Side side(String name, String database, Path otherBuild) throws Exception {
        String url = TestDatabase.developmentUrl(database); // created here, dropped at the end
        List<String> props = List.of("spring.datasource.url=" + url,
                "spring.datasource.username=" + TestDatabase.user(),
                "spring.datasource.password=" + TestDatabase.password(),
                // a steady pool: a backend that ended within a round would take its CPU with it
                "spring.datasource.hikari.minimum-idle=10", "spring.datasource.hikari.idle-timeout=600000",
                "payments.psp.api-url=http://127.0.0.1:9", "payments.outbox.enabled=true",
                "payments.outbox.interval=200ms", "payments.outbox.sinks.notify-url=" + sink.url() + "/notify",
                "payments.outbox.sinks.conversion-url=" + sink.url() + "/conversion",
                "payments.outbox.sinks.fulfilment-url=" + sink.url() + "/fulfilment");
        ServiceProcess instance = ServiceProcess.start(name, DIR, props, otherBuild);
        instance.awaitHealthy(Duration.ofMinutes(5));
        Connection harness = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
        int pid;
        try (Statement s = harness.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            pid = rs.getInt(1);
        }
        return new Side(name, instance, database, harness, pid, new double[4]);
    }

    private void round(Side side, String label, boolean measured) throws Exception {
        String prefix = "bench_" + side.name().charAt(side.name().length() - 1) + "_" + System.nanoTime() + "_";
        sink.received.clear();
        try (PreparedStatement insert = side.harness().prepareStatement("""
                INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, next_attempt_at)
                SELECT 'renewal_notice', 'subscription', ? || g, ? || g || ':renewal_notice',
                       jsonb_build_object('kind', 'renewal_notice', 'userId', 'user_' || g,
                                          'subscriptionId', ? || g, 'periodStart', 1767225600),
                       now() + interval '1 second'
                  FROM generate_series(1, ?) AS g""")) {
            insert.setString(1, prefix);
            insert.setString(2, prefix);
            insert.setString(3, prefix);
            insert.setInt(4, ROWS);
            insert.executeUpdate();
        }
        try (Statement s = side.harness().createStatement()) {
            s.execute("ANALYZE outbox");
        }
        long threadsBefore = side.instance().threads();
        String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        long jvmStart = ticks(side.instance().pid());
        Map<Integer, Long> pgStart = backends(side);
        long start = System.nanoTime();
        while (pending(side, prefix) > 0) {
            Thread.sleep(50);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long jvm = ticks(side.instance().pid()) - jvmStart;
        Map<Integer, Long> pgEnd = backends(side);
        long pg = pgEnd.entrySet().stream().mapToLong(e -> e.getValue() - pgStart.getOrDefault(e.getKey(), 0L)).sum();
        long threadsAfter = side.instance().threads();
        assertThat(sink.received).as("keys at the sink").hasSize(ROWS);
        assertThat(sink.received.values().stream().mapToInt(AtomicInteger::get).max().orElse(0)).as("sends per key")
                .isEqualTo(1);
        double jvmMs = jvm * 1000.0 / TICKS_PER_SECOND;
        double pgMs = pg * 1000.0 / TICKS_PER_SECOND;
        line(String.format("%s %-10s %d rows in %.2f s (%.0f/s, the window opening ~1 s before due); JVM %.3f ms/effect, PostgreSQL %.3f "
                + "ms/effect (%d backends); threads %d -> %d; load %s", side.name(), label, ROWS, seconds,
                ROWS / seconds, jvmMs / ROWS, pgMs / ROWS, pgEnd.size(), threadsBefore, threadsAfter, load));
        if (measured) {
            double[] t = side.totals();
            t[0] += ROWS;
            t[1] += jvmMs;
            t[2] += pgMs;
            t[3] += seconds;
        }
    }

    private static long pending(Side side, String prefix) throws SQLException {
        try (PreparedStatement count = side.harness().prepareStatement(
                "SELECT count(*) FROM outbox WHERE state = 'pending' AND idempotency_key LIKE ?")) {
            count.setString(1, prefix + "%");
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Ticks of every backend on the side's database but the harness's own. */
    private static Map<Integer, Long> backends(Side side) throws SQLException {
        Map<Integer, Long> ticks = new HashMap<>();
        try (PreparedStatement s = side.harness().prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE datname = ? AND pid <> ?")) {
            s.setString(1, side.database());
            s.setInt(2, side.harnessPid());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ticks.put(rs.getInt(1), ticks(rs.getInt(1)));
                }
            }
        }
        return ticks;
    }

    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException gone) {
            return 0;
        }
    }

    private void line(String text) {
        System.out.println(text);
        report.append(text).append('\n');
    }
}
