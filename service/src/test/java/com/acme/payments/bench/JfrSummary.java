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

    private JfrSummary() {
    }

    /** {@code java -cp target/test-classes:target/classes com.acme.payments.bench.JfrSummary <file.jfr>...} */
    public static void main(String[] args) throws Exception {
        for (String file : args) {
            System.out.println(file + ": " + summarize(Path.of(file)));
        }
    }

    static String summarize(Path recording) throws Exception {
        List<RecordedEvent> samples = RecordingFile.readAllEvents(recording).stream()
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
                + "\n  hottest top frames: " + top(byTop, n, 10)
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
