package com.acme.payments.bench;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One service instance as its own JVM ({@code -Xmx512m} unless told otherwise), started from the test classpath with the
 * {@code test} profile (fixed keys, jobs off) plus the benchmark's overrides. Output goes to
 * {@code target/benchmarks/<name>.log}.
 */
final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    final String name;
    final int port;
    private final Process process;

    private ServiceProcess(String name, int port, Process process) {
        this.name = name;
        this.port = port;
        this.process = process;
    }

    static ServiceProcess start(String name, Path dir, List<String> properties) throws IOException {
        return start(name, dir, properties, null);
    }

    /**
     * {@code otherBuild}: a checkout of another commit whose {@code target/classes} and
     * {@code target/test-classes} replace this build's on the class path (the same dependency jars), so
     * two commits run side by side against one database; null for this build.
     */
    static ServiceProcess start(String name, Path dir, List<String> properties, Path otherBuild) throws IOException {
        return start(name, dir, properties, otherBuild, "512m");
    }

    /** {@code maxHeap}: the instance's {@code -Xmx} (a small one shows what a workload really keeps). */
    static ServiceProcess start(String name, Path dir, List<String> properties, Path otherBuild, String maxHeap)
            throws IOException {
        int port = freePort();
        Path argfile = dir.resolve(name + ".args");
        String classPath = System.getProperty("java.class.path");
        if (otherBuild != null) {
            Path here = Path.of("target").toAbsolutePath();
            classPath = Arrays.stream(classPath.split(File.pathSeparator)).map(entry -> {
                Path path = Path.of(entry).toAbsolutePath();
                return path.startsWith(here) ? otherBuild.resolve("target").resolve(here.relativize(path)).toString()
                        : entry;
            }).collect(Collectors.joining(File.pathSeparator));
        }
        Files.writeString(argfile, "-cp \"" + classPath + "\"\n");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + maxHeap);
        // the default depth (64) cuts the stacks off below the controllers; 256 reaches Tomcat's threads
        command.add("-XX:FlightRecorderOptions:stackdepth=256");
        command.add("@" + argfile);
        command.add("com.acme.payments.PaymentsApplication");
        command.add("--spring.profiles.active=test");
        command.add("--server.port=" + port);
        properties.forEach(p -> command.add("--" + p));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile()).start();
        return new ServiceProcess(name, port, process);
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    void awaitHealthy(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see its log");
            }
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/actuator/health"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(name + " not healthy after " + timeout);
    }

    /** The Prometheus text of this instance. */
    String prometheus() throws IOException, InterruptedException {
        return prometheus("");
    }

    /**
     * Only the named metrics ({@code includedNames}): a full scrape of an instance that has served the
     * benchmark costs it several ms of CPU, which a sampler polling every 500 ms adds to the workload measured.
     */
    String prometheus(String... names) throws IOException, InterruptedException {
        String query = names.length == 0 || names[0].isEmpty() ? "" : "?includedNames=" + String.join(",", names);
        return HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/actuator/prometheus" + query))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Sum of every sample of a metric whose line starts with the name (and matches the label filter). */
    static double metric(String prometheus, String name, String labelFilter) {
        double sum = 0;
        for (String line : prometheus.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                if (labelFilter == null || line.contains(labelFilter)) {
                    sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        return sum;
    }

    /** Heap in use right after a full GC ({@code jcmd GC.run}, then {@code GC.heap_info}), in MiB. */
    double heapAfterGcMiB() throws IOException, InterruptedException {
        jcmd("GC.run");
        String info = jcmd("GC.heap_info");
        Matcher used = Pattern.compile("used (\\d+)K").matcher(info);
        if (!used.find()) {
            throw new IllegalStateException("no heap figure in: " + info);
        }
        return Long.parseLong(used.group(1)) / 1024.0;
    }

    /** Live threads of the JVM now ({@code Threads:} of /proc/<pid>/status). */
    long threads() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("Threads:")) {
                return Long.parseLong(line.substring(8).strip());
            }
        }
        throw new IllegalStateException("no Threads: line for " + name);
    }

    /** Threads started since the JVM began ({@code java.threads.started}, jcmd PerfCounter.print). */
    long threadsStarted() throws IOException, InterruptedException {
        Matcher started = Pattern.compile("java\\.threads\\.started=(\\d+)").matcher(jcmd("PerfCounter.print"));
        if (!started.find()) {
            throw new IllegalStateException("no java.threads.started for " + name);
        }
        return Long.parseLong(started.group(1));
    }

    String jcmd(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
        command.add(Long.toString(process.pid()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: graceful shutdown
        if (!process.waitFor(40, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
