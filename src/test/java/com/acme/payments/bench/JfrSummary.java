package com.acme.payments.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads {@code jdk.ExecutionSample} events of a recording (what {@code jfr print --events
 * jdk.ExecutionSample} shows) and says where the service's CPU went: by the library of the top frame,
 * and the hottest top frames.
 */
final class JfrSummary {

    private static final String[][] AREAS = {
            { "org.postgresql.", "JDBC driver (PostgreSQL protocol)" },
            { "com.zaxxer.hikari.", "Hikari pool" },
            { "tools.jackson.", "Jackson JSON" },
            { "ch.qos.logback.", "logging" }, { "org.slf4j.", "logging" },
            { "org.apache.tomcat.", "Tomcat" }, { "org.apache.catalina.", "Tomcat" }, { "org.apache.coyote.", "Tomcat" },
            { "io.micrometer.", "Micrometer" },
            { "org.springframework.", "Spring" },
            { "com.acme.", "service code" },
            { "sun.nio.", "JDK network I/O" }, { "sun.net.", "JDK network I/O" }, { "java.net.", "JDK network I/O" },
            { "jdk.internal.net.", "JDK network I/O" },
            { "javax.crypto.", "JDK crypto (HMAC)" }, { "com.sun.crypto.", "JDK crypto (HMAC)" },
            { "sun.security.", "JDK crypto (HMAC)" },
            { "java.util.regex.", "JDK regex" },
            { "java.", "JDK other" }, { "jdk.", "JDK other" }, { "sun.", "JDK other" } };

    /** Share of samples with such a frame anywhere on the stack (inclusive time). */
    private static final String[][] INCLUSIVE = {
            { "org.apache.coyote.", "Tomcat request handling" },
            { "org.springframework.web.servlet.", "Spring MVC dispatch" },
            { "io.micrometer.", "Micrometer (observations, meters)" },
            { "org.springframework.transaction.", "transaction management" },
            { "org.springframework.jdbc.", "JdbcClient / JdbcTemplate" },
            { "org.postgresql.", "PostgreSQL JDBC driver" },
            { "com.zaxxer.hikari.", "Hikari" },
            { "tools.jackson.", "Jackson" },
            { "ch.qos.logback.", "Logback" },
            { "jdk.internal.net.http.", "JDK HttpClient (PSP calls)" } };

    /**
     * The named layers of the stack. A sample's <em>owner</em> is the first of its frames, from the top, that is
     * not the JDK's (java., jdk., sun., com.sun.) and not a generated class: a HashMap look-up made by
     * Micrometer is Micrometer's, a socket read made by the driver the driver's. Checked in this order, so
     * Spring's observation and transaction packages count apart from the rest of Spring.
     */
    private static final String[][] LAYERS = {
            { "org.apache.tomcat.", "Tomcat" }, { "org.apache.catalina.", "Tomcat" }, { "org.apache.coyote.", "Tomcat" },
            { "org.eclipse.jetty.", "Jetty" },
            { "io.micrometer.", "Micrometer / observation" },
            { "org.springframework.http.server.observation.", "Micrometer / observation" },
            { "org.springframework.http.client.observation.", "Micrometer / observation" },
            { "org.springframework.web.filter.ServerHttpObservationFilter", "Micrometer / observation" },
            { "org.springframework.scheduling.support.ScheduledTaskObservation", "Micrometer / observation" },
            { "org.springframework.boot.micrometer.", "Micrometer / observation" },
            { "org.springframework.boot.actuate.metrics.", "Micrometer / observation" },
            { "io.opentelemetry.", "OpenTelemetry" },
            { "tools.jackson.", "Jackson" }, { "com.fasterxml.jackson.", "Jackson" },
            { "org.springframework.http.converter.", "Spring HTTP message conversion" },
            { "com.zaxxer.hikari.", "Hikari" },
            { "org.postgresql.", "pgjdbc" },
            { "org.springframework.transaction.", "Spring tx" },
            { "org.springframework.jdbc.", "Spring JDBC" },
            { "ch.qos.logback.", "logging" }, { "org.slf4j.", "logging" },
            { "org.springframework.web.servlet.", "Spring MVC" }, { "org.springframework.web.method.", "Spring MVC" },
            { "org.springframework.web.", "Spring web (filters, client)" },
            { "org.springframework.security.", "Spring Security" },
            { "org.springframework.aop.", "Spring AOP / proxies" },
            { "org.springframework.", "Spring other" },
            { "jakarta.", "Servlet API" } };

    private JfrSummary() {
    }

    /** {@code java -cp target/test-classes:target/classes com.acme.payments.bench.JfrSummary <file.jfr>...} */
    public static void main(String[] args) throws Exception {
        List<String> frames = java.util.Arrays.stream(args).filter(a -> a.startsWith("--frame=")).map(a -> a.substring(8))
                .toList();
        for (String file : args) {
            if (file.startsWith("--")) {
                continue;
            }
            System.out.println(file + ": " + (frames.isEmpty() ? summarize(Path.of(file)) : frames(Path.of(file), frames)));
        }
    }

    /**
     * {@code --frame=TransactionAspectSupport.determineTransactionManager ...}: the samples with a frame whose
     * class.method contains each string (inclusive), to price one call site.
     */
    static String frames(Path recording, List<String> wanted) throws Exception {
        List<RecordedEvent> samples = executionSamples(RecordingFile.readAllEvents(recording));
        StringBuilder out = new StringBuilder(samples.size() + " execution samples");
        for (String w : wanted) {
            long n = samples.stream().filter(e -> e.getStackTrace().getFrames().stream().anyMatch(f -> name(f).contains(w)))
                    .count();
            out.append(String.format("%n  %s: %d (%.1f%%)", w, n, 100.0 * n / samples.size()));
        }
        return out.toString();
    }

    static String summarize(Path recording) throws Exception {
        List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
        return samples(events) + "\n" + layers(events) + "\n" + allocation(events) + "\n" + gcAndJit(events);
    }

    /** The layer a frame belongs to; our code by feature ("ours: checkout"); null for the JDK's and generated code. */
    static String layer(String frame) {
        if (frame.startsWith("com.acme.payments.")) {
            String rest = frame.substring("com.acme.payments.".length());
            int dot = rest.indexOf('.');
            String feature = dot < 0 || !Character.isLowerCase(rest.charAt(0)) ? "app" : rest.substring(0, dot);
            if (feature.equals("common")) {
                String sub = rest.substring(dot + 1);
                int d = sub.indexOf('.');
                feature = d < 0 || !Character.isLowerCase(sub.charAt(0)) ? "common" : "common." + sub.substring(0, d);
            }
            return "ours: " + feature;
        }
        for (String[] l : LAYERS) {
            if (frame.startsWith(l[0])) {
                return l[1];
            }
        }
        if (frame.startsWith("java.") || frame.startsWith("jdk.") || frame.startsWith("sun.")
                || frame.startsWith("com.sun.") || frame.contains("$$") || frame.startsWith("[")) {
            return null;
        }
        return "other: " + frame.substring(0, Math.max(0, frame.indexOf('.', frame.indexOf('.') + 1)));
    }

    /** The first layer from the top of a stack; the JDK's own if no frame has one. */
    static String owner(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String l = layer(name(f));
            if (l != null) {
                return l;
            }
        }
        return "JDK only";
    }

    /** Owner (self, attributed) and inclusive share of each layer, with sample counts. */
    private static String layers(List<RecordedEvent> events) {
        List<RecordedEvent> samples = executionSamples(events);
        if (samples.isEmpty()) {
            return "";
        }
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> incl = new HashMap<>();
        Map<String, Integer> threads = new HashMap<>();
        Map<String, Integer> ours = new HashMap<>();
        for (RecordedEvent e : samples) {
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            self.merge(owner(frames), 1, Integer::sum);
            frames.stream().map(JfrSummary::name).filter(f -> f.startsWith("com.acme.payments.")).distinct()
                    .forEach(f -> ours.merge(f.substring("com.acme.payments.".length()), 1, Integer::sum));
            frames.stream().map(f -> layer(name(f))).filter(java.util.Objects::nonNull).distinct()
                    .forEach(l -> incl.merge(l, 1, Integer::sum));
            String thread = e.getThread("sampledThread") == null ? "?" : e.getThread("sampledThread").getJavaName();
            threads.merge(thread == null ? "?" : thread.replaceAll("\\d+", "N"), 1, Integer::sum);
        }
        int n = samples.size();
        return "  by thread: " + counted(threads, n, 8)
                + "\n  by layer, attributed (the first non-JDK frame from the top; JDK code counts to its caller): "
                + counted(self, n, 30)
                + "\n  by layer, inclusive (a frame of it anywhere on the stack): " + counted(incl, n, 30)
                + "\n  our methods, inclusive: " + counted(ours, n, 24);
    }

    /** Sampled allocation (jdk.ObjectAllocationSample weights): by owner layer, by allocating frame and by class. */
    private static String allocation(List<RecordedEvent> events) {
        Map<String, Long> byOwner = new HashMap<>();
        Map<String, Long> byFrame = new HashMap<>();
        Map<String, Long> byClass = new HashMap<>();
        long total = 0;
        int count = 0;
        for (RecordedEvent e : events) {
            if (!e.getEventType().getName().equals("jdk.ObjectAllocationSample") || e.getStackTrace() == null) {
                continue;
            }
            long w = e.getLong("weight");
            total += w;
            count++;
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            byOwner.merge(owner(frames), w, Long::sum);
            frames.stream().map(JfrSummary::name).filter(f -> layer(f) != null).findFirst()
                    .ifPresent(f -> byFrame.merge(f, w, Long::sum));
            byClass.merge(e.getClass("objectClass").getName(), w, Long::sum);
        }
        if (count == 0) {
            return "  allocation: no samples";
        }
        return String.format("  allocation (%d samples, ≈ %.0f MiB in the recording): by owner layer: %s%n"
                + "    by allocating frame (first non-JDK): %s%n    by class: %s", count, total / 1048576.0,
                weighted(byOwner, total, 14), weighted(byFrame, total, 14), weighted(byClass, total, 8));
    }

    /** Collections (count, pause total, the heap before/after), compilations (count, time, by tier), the window. */
    private static String gcAndJit(List<RecordedEvent> events) {
        java.time.Instant first = null;
        java.time.Instant last = null;
        int gcs = 0;
        double gcMs = 0;
        double pauseMs = 0;
        Map<String, Integer> gcNames = new HashMap<>();
        int compilations = 0;
        double compileMs = 0;
        Map<String, Double> compileByTier = new HashMap<>();
        Map<String, Double> compileByOwner = new HashMap<>();
        double statsStart = -1;
        double statsEnd = -1;
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("jdk.ExecutionSample")) { // the window the samples span
                java.time.Instant t = e.getStartTime();
                first = first == null || t.isBefore(first) ? t : first;
                last = last == null || t.isAfter(last) ? t : last;
            }
            switch (e.getEventType().getName()) {
                case "jdk.GarbageCollection" -> {
                    gcs++;
                    gcMs += e.getDuration().toNanos() / 1e6;
                    pauseMs += e.getDuration("sumOfPauses").toNanos() / 1e6;
                    gcNames.merge(e.getString("name") + "/" + e.getString("cause"), 1, Integer::sum);
                }
                case "jdk.Compilation" -> {
                    compilations++;
                    double ms = e.getDuration().toNanos() / 1e6;
                    compileMs += ms;
                    compileByTier.merge("tier " + e.getInt("compileLevel") + (e.getBoolean("isOsr") ? " OSR" : ""), ms,
                            Double::sum);
                    String type = e.getValue("method") == null ? "?"
                            : ((jdk.jfr.consumer.RecordedMethod) e.getValue("method")).getType().getName() + ".x";
                    String l = layer(type);
                    compileByOwner.merge(l == null ? "JDK" : l, ms, Double::sum);
                }
                case "jdk.CompilerStatistics" -> {
                    double spent = e.getLong("totalTimeSpent");
                    statsStart = statsStart < 0 ? spent : Math.min(statsStart, spent);
                    statsEnd = Math.max(statsEnd, spent);
                }
                default -> {
                }
            }
        }
        double window = first == null ? 0 : java.time.Duration.between(first, last).toNanos() / 1e9;
        Map<String, Integer> tiers = new HashMap<>();
        compileByTier.forEach((k, v) -> tiers.put(k, (int) Math.round(v)));
        Map<String, Integer> owners = new HashMap<>();
        compileByOwner.forEach((k, v) -> owners.put(k, (int) Math.round(v)));
        return String.format("  window %.1f s; GC: %d collections, %.0f ms in all, %.0f ms paused (%s)%n"
                + "  JIT: %d compilations, %.0f ms of compiler-thread time (%s; by the method's layer, ms: %s)%s",
                window, gcs, gcMs, pauseMs, gcNames, compilations, compileMs, tiers, owners,
                statsEnd < 0 ? "" : String.format("; jdk.CompilerStatistics totalTimeSpent +%.0f ms", statsEnd - statsStart));
    }

    private static List<RecordedEvent> executionSamples(List<RecordedEvent> events) {
        return events.stream().filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample"))
                .filter(e -> e.getStackTrace() != null && !e.getStackTrace().getFrames().isEmpty()).toList();
    }

    private static String counted(Map<String, Integer> counts, int total, int limit) {
        return counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(limit)
                .map(e -> String.format("%s %.1f%% (%d)", e.getKey(), 100.0 * e.getValue() / total, e.getValue()))
                .collect(Collectors.joining(", "));
    }

    private static String weighted(Map<String, Long> weights, long total, int limit) {
        return weights.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(limit)
                .map(e -> String.format("%s %.1f%%", e.getKey(), 100.0 * e.getValue() / total))
                .collect(Collectors.joining(", "));
    }

    private static String samples(List<RecordedEvent> events) {
        List<RecordedEvent> samples = events.stream()
                .filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample"))
                .filter(e -> e.getStackTrace() != null && !e.getStackTrace().getFrames().isEmpty())
                .toList();
        if (samples.isEmpty()) {
            return "no execution samples";
        }
        Map<String, Integer> byArea = new HashMap<>();
        Map<String, Integer> byTop = new HashMap<>();
        Map<String, Integer> byAcme = new HashMap<>();
        Map<String, Integer> inclusive = new java.util.LinkedHashMap<>();
        for (RecordedEvent e : samples) {
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            String top = name(frames.get(0));
            for (String[] marker : INCLUSIVE) {
                if (frames.stream().anyMatch(f -> name(f).startsWith(marker[0]))) {
                    inclusive.merge(marker[1], 1, Integer::sum);
                }
            }
            byTop.merge(top, 1, Integer::sum);
            byArea.merge(area(top), 1, Integer::sum);
            frames.stream().map(JfrSummary::name).filter(n -> n.startsWith("com.acme.payments.")).findFirst()
                    .ifPresent(n -> byAcme.merge(n, 1, Integer::sum));
        }
        int n = samples.size();
        return n + " execution samples\n  by library of the top frame: " + top(byArea, n, 12)
                + "\n  hottest top frames: " + top(byTop, n, 16)
                + "\n  innermost service frame on the stack: " + top(byAcme, n, 8)
                + "\n  inclusive (a frame of it anywhere on the stack): " + top(inclusive, n, INCLUSIVE.length);
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private static String area(String frame) {
        for (String[] a : AREAS) {
            if (frame.startsWith(a[0])) {
                return a[1];
            }
        }
        return "other";
    }

    private static String top(Map<String, Integer> counts, int total, int limit) {
        return counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(limit)
                .map(e -> String.format("%s %.0f%%", e.getKey(), 100.0 * e.getValue() / total))
                .collect(Collectors.joining(", ", "", ""));
    }
}
