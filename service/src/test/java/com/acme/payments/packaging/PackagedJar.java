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
 * The jar {@code ./mvnw package} built, started as a separate process the way an operator (and the
 * image) starts it: {@code java -jar} for the service, {@code PropertiesLauncher} with {@code loader.main}
 * for the simulator. The child gets only the environment given here (plus {@code PATH}/{@code HOME}), so
 * nothing from the test JVM — a profile, {@code TEST_DATABASE_URL}, a developer's variables — leaks in.
 */
final class PackagedJar {

    static final String SIMULATOR_MAIN = "com.acme.pspsim.PspSimulatorApplication";

    private PackagedJar() {
    }

    /** {@code target/payments-*.jar}, the repackaged Boot jar (never {@code *.jar.original}). */
    static Path jar() {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            List<Path> jars = files.filter(p -> p.getFileName().toString().matches("payments-.*\\.jar")).toList();
            if (jars.size() != 1) {
                throw new IllegalStateException("expected one target/payments-*.jar (run ./mvnw package), found " + jars);
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

    /** The simulator from the same jar, as the image's compose entry point starts it. */
    static Process simulator(Map<String, String> env, Path log) {
        return start(List.of("-Dloader.main=" + SIMULATOR_MAIN, "-cp", jar().toString(),
                "org.springframework.boot.loader.launch.PropertiesLauncher"), env, log);
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
