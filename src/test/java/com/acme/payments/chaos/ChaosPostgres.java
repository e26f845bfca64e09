package com.acme.payments.chaos;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The chaos run's own PostgreSQL server: Debian's binaries ({@code /usr/lib/postgresql/<v>/bin}), a
 * fresh {@code initdb} in a temp directory, a free port, trust auth on 127.0.0.1. The run can stop and
 * start it (a full outage) without touching the machine's shared server, which other test JVMs use at
 * the same time. As root the binaries run as the {@code postgres} user (initdb refuses root).
 */
final class ChaosPostgres implements AutoCloseable {

    private final Path bin;
    private final Path dir;
    private final int port;
    private final boolean asPostgres;

    private ChaosPostgres(Path bin, Path dir, int port, boolean asPostgres) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.asPostgres = asPostgres;
    }

    /** A running server of our own, or empty (with the reason printed) when no PostgreSQL binaries are here. */
    static Optional<ChaosPostgres> startIfAvailable() {
        Optional<Path> bin = binaries();
        if (bin.isEmpty()) {
            System.out.println("chaos: no PostgreSQL binaries under /usr/lib/postgresql: shared server, no outage");
            return Optional.empty();
        }
        try {
            boolean root = "root".equals(System.getProperty("user.name"));
            Path dir = Files.createTempDirectory("chaos-pg-");
            ChaosPostgres pg = new ChaosPostgres(bin.get(), dir, freePort(), root);
            if (root) {
                run(List.of("chown", "postgres:", dir.toString()), false);
            }
            pg.pgRun(List.of(bin.get().resolve("initdb").toString(), "-D", dir.resolve("data").toString(),
                    "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"));
            pg.start();
            // a test JVM that is killed or interrupted must not leave a server running
            Runtime.getRuntime().addShutdownHook(new Thread(pg::close, "chaos-postgres-stop"));
            return Optional.of(pg);
        } catch (IOException | RuntimeException e) {
            System.out.println("chaos: could not start an own PostgreSQL (" + e.getMessage() + "): shared server, no outage");
            return Optional.empty();
        }
    }

    int port() {
        return port;
    }

    String urlFor(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    void createDatabase(String name) {
        try (Connection c = DriverManager.getConnection(urlFor("postgres"), "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Starts the server and waits until it accepts connections. */
    void start() {
        pgRun(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-w", "-t", "120",
                "-l", dir.resolve("server.log").toString(), "-o",
                "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir + " -c fsync=off -c max_connections=200",
                "start"));
    }

    /** A plain-SQL dump of {@code database} into {@code file} (written by this JVM, read with psql). */
    void dump(String database, Path file) {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(List.of(bin.resolve("pg_dump").toString(), "-h", "127.0.0.1", "-p", String.valueOf(port), "-U",
                "postgres", "--no-owner", database));
        try {
            Process process = new ProcessBuilder(full).redirectOutput(file.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0) {
                System.err.println("pg_dump of " + database + " failed");
            }
        } catch (IOException e) {
            System.err.println("pg_dump of " + database + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops it the hard way (immediate: every session cut, crash recovery at the next start). */
    void stop() {
        pgRun(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-w", "-t", "120",
                "-m", "immediate", "stop"));
    }

    @Override
    public synchronized void close() {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            stop();
        } catch (RuntimeException alreadyStopped) {
            // deleting the directory is all that is left
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e.getMessage());
        }
    }

    private void pgRun(List<String> command) {
        run(command, asPostgres);
    }

    private static void run(List<String> command, boolean asPostgres) {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        try {
            Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output.strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Optional<Path> binaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("pg_ctl")) && Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(b -> versionOf(b.getParent())));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int versionOf(Path versionDir) {
        try {
            return Integer.parseInt(versionDir.getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
