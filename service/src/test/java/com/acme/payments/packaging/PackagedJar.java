package com.acme.payments.packaging;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The jars {@code ./mvnw package} built, started as separate processes the way an operator (and the
 * images) start them: {@code java -jar} for the service and, from the simulator module's own artifact, for the
 * simulator. The child gets only the environment given here (plus {@code PATH}/{@code HOME}), so
 * nothing from the test JVM — a profile, {@code TEST_DATABASE_URL}, a developer's variables — leaks in.
 */
final class PackagedJar {

    private PackagedJar() {
    }

    /** {@code target/payments-*.jar}, the repackaged Boot jar (never {@code *.jar.original}). */
    static Path jar() {
        return onlyJar(Path.of("target"), "payments-.*\\.jar");
    }

    /** {@code ../simulator/target/pspsim-*-exec.jar}: the simulator module's executable jar (the reactor builds it first). */
    static Path simulatorJar() {
        return onlyJar(Path.of("..", "simulator", "target"), "pspsim-.*-exec\\.jar");
    }

    private static Path onlyJar(Path dir, String name) {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> jars = files.filter(p -> p.getFileName().toString().matches(name)).toList();
            if (jars.size() != 1) {
                throw new IllegalStateException("expected one " + name + " in " + dir + " (run ./mvnw package), found " + jars);
            }
            return jars.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code java -jar <jar>}: the manifest's {@code Main-Class} and {@code Start-Class} decide what runs. */
    static Process service(Map<String, String> env, Path log) {
        return start(List.of("-jar", jar().toString()), env, log);
    }

    /** {@code java -jar <the simulator's jar>}, as its image starts it. */
    static Process simulator(Map<String, String> env, Path log) {
        return start(List.of("-jar", simulatorJar().toString()), env, log);
    }

    private static Process start(List<String> args, Map<String, String> env, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx384m");
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> childEnv = builder.environment();
        childEnv.keySet().retainAll(List.of("PATH", "HOME", "LANG", "TMPDIR"));
        childEnv.putAll(env);
        try {
            Files.createDirectories(log.getParent());
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGTERM, then waits at most {@code bound}; kills it (and fails the caller) if it does not exit. */
    static int terminate(Process process, Duration bound) throws InterruptedException {
        process.destroy(); // SIGTERM on Linux
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("did not exit within " + bound + " of SIGTERM");
        }
        return process.exitValue();
    }

    static void kill(Process process) {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
