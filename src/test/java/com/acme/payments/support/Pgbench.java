package com.acme.payments.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.acme.payments.support.TestDatabase;

/** The reference: {@code pgbench -N -c 8 -j 2 -T 20} on a database of its own ({@code pgbench -i -s 10}), same server. */
final class Pgbench {

    static final String DATABASE = "bench_pgbench";

    private Pgbench() {
    }

    static void init() throws Exception {
        try (Connection c = DriverManager.getConnection(TestDatabase.url().replaceFirst("/[^/?]+(\\?|$)", "/postgres$1"),
                TestDatabase.user(), TestDatabase.password()); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + DATABASE);
        }
        run(List.of("-i", "-s", "10", "-q"));
    }

    /** Runs the reference and returns its tps (without initial connection time). */
    static double tps() throws Exception {
        String out = run(List.of("-N", "-c", "8", "-j", "2", "-T", "20"));
        Matcher tps = Pattern.compile("tps = ([0-9.]+)").matcher(out);
        if (!tps.find()) {
            throw new IllegalStateException("no tps in pgbench output: " + out);
        }
        return Double.parseDouble(tps.group(1));
    }

    static void drop() throws Exception {
        try (Connection c = DriverManager.getConnection(TestDatabase.url().replaceFirst("/[^/?]+(\\?|$)", "/postgres$1"),
                TestDatabase.user(), TestDatabase.password()); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
        }
    }

    private static String run(List<String> args) throws IOException, InterruptedException {
        URI server = URI.create(TestDatabase.url().substring("jdbc:".length()));
        List<String> command = new java.util.ArrayList<>(List.of("pgbench", "-h", server.getHost(), "-p",
                Integer.toString(server.getPort() < 0 ? 5432 : server.getPort()), "-U", TestDatabase.user()));
        command.addAll(args);
        command.add(DATABASE);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", TestDatabase.password());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
