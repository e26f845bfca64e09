package com.acme.payments.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;

import com.acme.payments.support.Http;
import com.acme.payments.support.TestDatabase;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The jars {@code ./mvnw package} built, started as separate processes the way an operator (and the
 * images) start them: {@code java -jar} for the service and, from the simulator's own jar, for the
 * simulator. The child gets only the environment given here (plus {@code PATH}/{@code HOME}), so
 * nothing from the test JVM — a profile, {@code TEST_DATABASE_URL}, a developer's variables — leaks in.
 * Also what every test of them shares: the production variables of either provider, the waits (each an
 * upper bound, never a timed assertion), the simulator's sink and the clean stop.
 */
final class PackagedJar {

    static final Duration START = Duration.ofMinutes(3);
    static final Duration FLOW = Duration.ofSeconds(90);
    static final Path LOGS = Path.of("target", "packaged-jar");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private PackagedJar() {
    }

    /** {@code target/payments-<version>.jar}, the repackaged Boot jar (never {@code *.jar.original}, nor the simulator's). */
    static Path jar() {
        return onlyJar(Path.of("target"), "payments-[0-9][^-]*(-SNAPSHOT)?\\.jar");
    }

    /** {@code target/payments-<version>-pspsim.jar}: the simulator's runnable jar, its libraries in {@code target/pspsim-lib/}. */
    static Path simulatorJar() {
        return onlyJar(Path.of("target"), "payments-.*-pspsim\\.jar");
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

    /**
     * The contract's variables both providers need, as an operator sets them, the actuator on the
     * management port; the sinks and the shop's return page are the simulator's. The caller adds its
     * provider's own ({@code PSP_*} or {@code PSP_PROVIDER=stripe} and {@code STRIPE_*}).
     */
    static Map<String, String> serviceEnv(int port, int managementPort, String publicUrl, String simUrl,
            String shopKey, String adminKey) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SPRING_DATASOURCE_URL", TestDatabase.url());
        env.put("SPRING_DATASOURCE_USERNAME", TestDatabase.user());
        env.put("SPRING_DATASOURCE_PASSWORD", TestDatabase.password());
        env.put("SHOP_API_KEYS", shopKey);
        env.put("ADMIN_API_KEYS", adminKey);
        env.put("NOTIFY_SINK_URL", simUrl + "/sink/notify");
        env.put("CONVERSION_SINK_URL", simUrl + "/sink/conversion");
        env.put("FULFILMENT_SINK_URL", simUrl + "/sink/fulfilment");
        env.put("APP_PUBLIC_URL", publicUrl);
        env.put("SHOP_RETURN_URL", simUrl + "/sink/thank-you");
        env.put("SHOP_RETURN_URL_PREFIXES", simUrl + "/sink/");
        env.put("SERVER_PORT", String.valueOf(port));
        env.put("MANAGEMENT_SERVER_PORT", String.valueOf(managementPort));
        return env;
    }

    /** The simulator on {@code port}, its hosted pages addressed at {@code simUrl}; the caller adds its surface's keys. */
    static Map<String, String> simulatorEnv(int port, String simUrl, String adminToken) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SERVER_PORT", String.valueOf(port));
        env.put("PSPSIM_ADMIN_TOKEN", adminToken);
        env.put("PSPSIM_PUBLIC_URL", simUrl);
        return env;
    }

    /** What the simulator's sink received so far ({@code GET /sim/sink}): path, idempotencyKey, body, …, in order. */
    static List<JsonNode> sink(String simUrl, String adminToken) {
        List<JsonNode> received = new ArrayList<>();
        new Http(simUrl).bearer(adminToken).get("/sim/sink").json().forEach(received::add);
        return received;
    }

    /** The sink's deliveries to {@code path} whose key ends {@code :kind} and whose body names {@code orderRef}. */
    static List<JsonNode> delivered(List<JsonNode> sink, String path, String kind, String orderRef) {
        return sink.stream().filter(r -> r.path("path").asString().equals(path)
                && r.path("idempotencyKey").asString().endsWith(":" + kind)
                && r.path("body").asString().contains(orderRef)).toList();
    }

    /** Waits until {@code healthUrl} answers UP; fails at once when the process exits, or after {@link #START}. */
    static void awaitUp(Process process, String healthUrl, Path log) throws InterruptedException {
        long deadline = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("exited with " + process.exitValue() + " during start; see " + log);
            }
            try {
                Http.Response health = new Http(healthUrl).get("");
                if (health.status() == 200 && "UP".equals(health.json().path("status").asString())) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // connection refused while it starts
            }
            Thread.sleep(500);
        }
        throw new AssertionError(healthUrl + " not UP within " + START + "; see " + log);
    }

    /** Polls until the condition holds; fails after {@link #FLOW} (an upper bound for asynchronous steps). */
    static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + FLOW.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError(what + " not seen within " + FLOW);
    }

    /**
     * The service's clean stop: exit code 0 after SIGTERM, the graceful shutdown logged, no ERROR line but
     * those the caller expects (an operator's alert the walk provokes on purpose) and none of
     * {@code secrets} anywhere in its log.
     */
    static void assertStopsCleanly(Process process, Path log, Predicate<String> expectedError, String... secrets)
            throws InterruptedException, IOException {
        assertThat(terminate(process, Duration.ofSeconds(90))).as("exit code after SIGTERM of " + log).isEqualTo(0);
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).as("graceful shutdown logged").anyMatch(l -> l.contains("Commencing graceful shutdown"));
        assertThat(lines).as("graceful shutdown logged").anyMatch(l -> l.contains("Graceful shutdown complete"));
        assertThat(errorLines(log)).as("unexpected ERROR lines in " + log).allMatch(expectedError);
        assertThat(String.join("\n", lines)).as("no secret in " + log).doesNotContain(secrets);
    }

    /** The log's ERROR lines. */
    static List<String> errorLines(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(PackagedJar::isError).toList();
    }

    /** ECS JSON nests the level ({@code "log":{"level":…}}); a plain line (a crash before logging is set up) by its text. */
    private static boolean isError(String line) {
        if (line.startsWith("{")) {
            try {
                JsonNode entry = JSON.readTree(line);
                JsonNode level = entry.path("log").path("level");
                return "ERROR".equals((level.isMissingNode() ? entry.path("log.level") : level).asString());
            } catch (RuntimeException notJson) {
                return line.contains("ERROR");
            }
        }
        return line.contains("ERROR") || line.contains("Exception");
    }

    /** Fresh random key material: nothing of the test profile or the development launcher. */
    static String secret() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
