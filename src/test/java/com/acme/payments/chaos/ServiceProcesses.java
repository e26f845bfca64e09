package com.acme.payments.chaos;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;


/**
 * The service as separate JVM processes (one per port, one shared database), launched from the test
 * JVM's own classpath. {@link #kill} is {@code destroyForcibly()} — SIGKILL on Linux: no shutdown hook,
 * no graceful stop, transactions cut mid-flight. Every process is killed again by {@link #close} and
 * by a JVM shutdown hook, so none outlives the test.
 */
final class ServiceProcesses implements AutoCloseable {

    /**
     * How long a (re)start may take before it counts as failed: an upper bound for a machine whose
     * cores are busy with other builds (a start took 151 s there), never a verdict on speed.
     */
    static final Duration START_WITHIN = Duration.ofSeconds(600);

    private static final HttpClient HEALTH = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final Path logDir;
    private final String simUrl;
    private final ChaosPsp psp;
    private final int[] ports;
    private final Process[] processes;
    private final int[] starts;
    private final Thread hook = new Thread(this::killAll, "chaos-kill-services");

    /** {@code ports} from {@link #freePorts}, chosen before the simulator starts (it may send to one of them). */
    ServiceProcesses(int[] ports, String simUrl, ChaosPsp psp, Path logDir) {
        this.logDir = logDir;
        this.simUrl = simUrl;
        this.psp = psp;
        this.ports = ports.clone();
        this.processes = new Process[ports.length];
        this.starts = new int[ports.length];
        Runtime.getRuntime().addShutdownHook(hook);
    }

    static int[] freePorts(int count) {
        int[] ports = new int[count];
        for (int i = 0; i < count; i++) {
            ports[i] = freePort();
        }
        return ports;
    }

    int count() {
        return ports.length;
    }

    String url(int instance) {
        return "http://localhost:" + ports[instance];
    }

    synchronized boolean alive(int instance) {
        return processes[instance] != null && processes[instance].isAlive();
    }

    /** Starts (or restarts, on the same port) one instance; returns once it answers its health check. */
    void start(int instance, Duration timeout) {
        Process process;
        synchronized (this) {
            if (alive(instance)) {
                return;
            }
            try {
                Files.createDirectories(logDir);
                File log = logDir.resolve("instance-" + instance + ".log").toFile();
                ProcessBuilder builder = new ProcessBuilder(command(instance))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log));
                Files.writeString(log.toPath(), "%n==== start #%d of instance %d on port %d ====%n"
                        .formatted(++starts[instance], instance, ports[instance]),
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                process = builder.start();
                processes[instance] = process;
            } catch (IOException e) {
                throw new IllegalStateException("could not launch instance " + instance, e);
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("instance " + instance + " exited with " + process.exitValue()
                        + " during start; see " + logDir.resolve("instance-" + instance + ".log"));
            }
            if (healthy(instance)) {
                return;
            }
            sleep(250);
        }
        throw new IllegalStateException("instance " + instance + " not healthy within " + timeout);
    }

    /** SIGKILL: the process gets no chance to finish anything. */
    synchronized void kill(int instance) {
        Process process = processes[instance];
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    boolean healthy(int instance) {
        try {
            HttpResponse<Void> r = HEALTH.send(HttpRequest.newBuilder(URI.create(url(instance) + "/actuator/health"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    private synchronized void killAll() {
        for (int i = 0; i < processes.length; i++) {
            kill(i);
        }
    }

    private List<String> command(int instance) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("spring.profiles.active", "test");
        p.put("server.port", String.valueOf(ports[instance]));
        p.put("spring.datasource.url", TestDatabaseName.url());
        p.put("spring.datasource.username", TestDatabaseName.user());
        p.put("spring.datasource.password", TestDatabaseName.password());
        p.put("spring.datasource.hikari.maximum-pool-size", "6");
        p.put("spring.datasource.hikari.connection-timeout", "3000");
        p.putAll(psp.serviceProperties(instance, url(instance), simUrl));
        p.put("payments.psp.connect-timeout", "1s");
        p.put("payments.psp.read-timeout", "2s");
        // each instance gives the PSP its own address for webhooks: a killed instance misses its webhooks
        p.put("payments.checkout.public-url", url(instance));
        p.put("payments.checkout.retry-after", "1s");
        p.put("payments.sweep.enabled", "true");
        p.put("payments.sweep.interval", "500ms");
        p.put("payments.sweep.lease", "3s");
        p.put("payments.sweep.in-flight-age", "4s");
        p.put("payments.replay.enabled", "true");
        p.put("payments.replay.interval", "500ms");
        p.put("payments.replay.min-age", "2s");
        p.put("payments.stragglers.enabled", "true");
        p.put("payments.stragglers.interval", "1s");
        p.put("payments.stragglers.grace", "3s");
        p.put("payments.outbox.enabled", "true");
        p.put("payments.outbox.interval", "200ms");
        p.put("payments.outbox.lease", "5s");
        p.put("payments.outbox.backoff", "200ms");
        p.put("payments.outbox.max-backoff", "2s");
        p.put("payments.outbox.max-attempts", "30");
        p.put("payments.outbox.sinks.connect-timeout", "500ms");
        p.put("payments.outbox.sinks.read-timeout", "2s");
        p.put("payments.outbox.sinks.notify-url", simUrl + "/sink/notify");
        p.put("payments.outbox.sinks.conversion-url", simUrl + "/sink/conversion");
        p.put("payments.outbox.sinks.fulfilment-url", simUrl + "/sink/fulfilment");
        p.put("payments.outbox.sinks.shop-events-url", simUrl + ShopEventInvariants.SINK_PATH);
        // every delivery signed, and checked by the simulator's sink (it refuses a bad one with 400)
        ChaosSimulator.SINK_SECRETS.forEach((sink, secret) -> p.put("payments.outbox.sinks." + sink + "-secret", secret));
        p.put("payments.gauges.refresh", "5s");
        // a claim left processing by a killed worker is taken over after this
        p.put("stripe.claim-expiry", "5s");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dchaos.instance=" + instance,
                "-cp", System.getProperty("java.class.path"),
                "com.acme.payments.PaymentsApplication"));
        p.forEach((k, v) -> command.add("--" + k + "=" + v));
        return command;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
