package com.acme.payments.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.acme.payments.support.TestDatabase;

/**
 * The benchmarks' reference: {@code pgbench -N -c 8 -j 2 -T 20} on a database of its own on the test
 * server, so a rate can be read against what that server does at all on this machine.
 */
public final class Pgbench {

    private final String database;

    public Pgbench(String database) {
        this.database = database;
    }

    /** Drops and creates the database, then {@code pgbench -i <options> -q}. */
    public void init(String... options) throws Exception {
        try (Connection c = serverConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + database);
        }
        List<String> args = new ArrayList<>(List.of("-i"));
        args.addAll(List.of(options));
        args.add("-q");
        run(args);
    }

    /** Runs the reference and returns its tps (without initial connection time). */
    public double tps() throws Exception {
        String out = run(List.of("-N", "-c", "8", "-j", "2", "-T", "20"));
        Matcher tps = Pattern.compile("tps = ([0-9.]+)").matcher(out);
        if (!tps.find()) {
            throw new IllegalStateException("no tps in pgbench output: " + out);
        }
        return Double.parseDouble(tps.group(1));
    }

    public void drop() throws Exception {
        try (Connection c = serverConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    private static Connection serverConnection() throws Exception {
        return DriverManager.getConnection(TestDatabase.url().replaceFirst("/[^/?]+(\\?|$)", "/postgres$1"),
                TestDatabase.user(), TestDatabase.password());
    }

    private String run(List<String> args) throws IOException, InterruptedException {
        URI server = URI.create(TestDatabase.url().substring("jdbc:".length()));
        List<String> command = new ArrayList<>(List.of("pgbench", "-h", server.getHost(), "-p",
                Integer.toString(server.getPort() < 0 ? 5432 : server.getPort()), "-U", TestDatabase.user()));
        command.addAll(args);
        command.add(database);
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
