package com.acme.payments.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the machine's CPU went during a workload, from /proc (clock ticks): the service JVMs, this
 * harness JVM (load clients and the in-process simulator), every {@code postgres} process on the
 * machine (other engineers' test databases included), and the rest (other engineers' builds).
 */
final class Cpu {

    private final Map<String, Long> pids;
    private Map<String, Long> start;
    private Map<String, Long> postgresStart;
    private long[] machineStart;
    private Map<String, Long> databaseStart;
    /** CPU milliseconds of the last window: each named process, "postgres" (all), "database" (our backends). */
    final Map<String, Double> lastMs = new LinkedHashMap<>();

    Cpu(Map<String, Long> pids) {
        this.pids = pids;
    }

    void start() throws IOException {
        start = snapshot();
        postgresStart = postgres();
        machineStart = machine();
        databaseStart = ourBackends();
    }

    /** CPU ms per operation of the last window for one name of {@link #lastMs}. */
    double msPerOp(String name, long ops) {
        return ops == 0 ? Double.NaN : lastMs.getOrDefault(name, 0.0) / ops;
    }

    /** Service JVMs together, ms per operation. */
    double serviceMsPerOp(long ops) {
        return ops == 0 ? Double.NaN
                : lastMs.entrySet().stream().filter(e -> e.getKey().startsWith("instance-"))
                        .mapToDouble(Map.Entry::getValue).sum() / ops;
    }

    /** "instance-a 41% · harness+simulator 30% · postgres 60% · other 12% · idle 57% (of 200%)". */
    String stop() throws IOException {
        Map<String, Long> end = snapshot();
        Map<String, Long> postgresEnd = postgres();
        long[] machineEnd = machine();
        Map<String, Long> databaseEnd = ourBackends();
        double msPerTick = 1000.0 / TICKS_PER_SECOND;
        lastMs.clear();
        for (String name : end.keySet()) {
            lastMs.put(name, (end.get(name) - start.getOrDefault(name, 0L)) * msPerTick);
        }
        lastMs.put("postgres", postgresEnd.entrySet().stream()
                .mapToLong(e -> e.getValue() - postgresStart.getOrDefault(e.getKey(), 0L)).sum() * msPerTick);
        // our database's backends alive at the end (the service pools'); one that started meanwhile counts from 0
        lastMs.put("database", databaseEnd.entrySet().stream()
                .mapToLong(e -> e.getValue() - databaseStart.getOrDefault(e.getKey(), 0L)).sum() * msPerTick);
        // per backend: a backend that ended meanwhile is left out, one that started counts from zero
        end.put("postgres", postgresEnd.entrySet().stream()
                .mapToLong(e -> e.getValue() - postgresStart.getOrDefault(e.getKey(), 0L)).sum());
        start.put("postgres", 0L);
        double total = machineEnd[0] - machineStart[0];
        double idle = machineEnd[1] - machineStart[1];
        int cores = Runtime.getRuntime().availableProcessors();
        StringBuilder out = new StringBuilder();
        double accounted = 0;
        for (String name : end.keySet()) {
            double share = (end.get(name) - start.getOrDefault(name, 0L)) / total * cores * 100;
            accounted += share;
            out.append(String.format("%s %.0f%% · ", name, share));
        }
        double busy = (total - idle) / total * cores * 100;
        out.append(String.format("other %.0f%% · idle %.0f%% (of %d00%%)", Math.max(0, busy - accounted),
                idle / total * cores * 100, cores));
        return out.toString();
    }

    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

    /** Held for the whole run: on a server other test suites fill up, a new connection may be refused. */
    private java.sql.Connection connection;

    /** ticks of every backend connected to this run's database, except the one asking. */
    private Map<String, Long> ourBackends() {
        Map<String, Long> ticks = new java.util.HashMap<>();
        try {
            if (connection == null || connection.isClosed()) {
                connection = Seeder.connect();
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        try (java.sql.Statement s = connection.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
            while (rs.next()) {
                String pid = Integer.toString(rs.getInt(1));
                ticks.put(pid, ticks(Path.of("/proc", pid, "stat")));
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return ticks;
    }

    private Map<String, Long> snapshot() throws IOException {
        Map<String, Long> ticks = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : pids.entrySet()) {
            ticks.put(e.getKey(), ticks(Path.of("/proc", e.getValue().toString(), "stat")));
        }
        return ticks;
    }

    private static Map<String, Long> postgres() throws IOException {
        Map<String, Long> ticks = new java.util.HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (p.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    try {
                        String stat = Files.readString(p.resolve("stat"));
                        if (stat.contains("(postgres)")) {
                            ticks.put(p.getFileName().toString(), ticks(stat));
                        }
                    } catch (IOException gone) {
                        // the process ended meanwhile
                    }
                }
            }
        }
        return ticks;
    }

    private static long ticks(Path stat) {
        try {
            return ticks(Files.readString(stat));
        } catch (IOException gone) {
            return 0;
        }
    }

    /** utime + stime of one /proc/<pid>/stat line. */
    private static long ticks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** total and idle(+iowait) ticks of the whole machine. */
    private static long[] machine() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < f.length; i++) {
            total += Long.parseLong(f[i]);
        }
        return new long[] { total, Long.parseLong(f[4]) + Long.parseLong(f[5]) };
    }
}
