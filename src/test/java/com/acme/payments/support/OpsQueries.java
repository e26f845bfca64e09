package com.acme.payments.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.yaml.snakeyaml.Yaml;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PromQL the operators rely on — every {@code expr} of the Grafana dashboards under
 * {@code ops/grafana/} (JSON) and of the Prometheus rule files under {@code ops/prometheus/} (YAML with
 * {@code groups}) — and the metric names those queries read, so a test can hold them against a real
 * scrape of {@code /actuator/prometheus}. A small reader, not a PromQL parser: it drops strings, label
 * matchers, ranges, grouping clauses, Grafana variables and function calls, and keeps the identifiers
 * left standing, which in PromQL are metric names.
 */
public final class OpsQueries {

    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", Pattern.CASE_INSENSITIVE);
    // an identifier not glued to a number or another name, and not a function call (possessive: no backing off)
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*+)(?!\\s*\\()");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
            "group_left", "group_right", "offset", "bool", "inf", "nan");
    /** Series Prometheus makes itself (per scrape target, per alert): never in the service's scrape. */
    public static final Set<String> PROMETHEUS_OWN = Set.of("up", "scrape_duration_seconds",
            "scrape_samples_scraped", "scrape_samples_post_metric_relabeling", "scrape_series_added", "ALERTS",
            "ALERTS_FOR_STATE");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private OpsQueries() {
    }

    /** One query, the file (and rule name) it came from, and the series it records (recording rules). */
    public record Query(String source, String expr, String records) {
    }

    /** Every query of the dashboards and rule files under {@code opsDir} (the repository's {@code ops/}). */
    public static List<Query> all(Path opsDir) {
        List<Query> queries = new ArrayList<>();
        for (Path file : files(opsDir.resolve("grafana"), ".json")) {
            collectJson(opsDir.relativize(file).toString(), JSON.readTree(read(file)), queries);
        }
        for (Path file : files(opsDir.resolve("prometheus"), ".yml", ".yaml")) {
            collectRules(opsDir.relativize(file).toString(), file, queries);
        }
        return queries;
    }

    /** The metric names {@code expr} reads. */
    public static Set<String> metricNames(String expr) {
        String text = GRAFANA_VARIABLE.matcher(expr).replaceAll("");
        text = STRING.matcher(text).replaceAll("\"\"");
        text = MATCHERS.matcher(text).replaceAll(" ");
        text = RANGE.matcher(text).replaceAll(" ");
        text = GROUPING.matcher(text).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(text);
        while (m.find()) {
            if (!KEYWORDS.contains(m.group(1).toLowerCase(java.util.Locale.ROOT))) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /**
     * Metric name → the queries that read it: the names the service must export, so without the series
     * Prometheus makes itself and those a recording rule of the same files makes.
     */
    public static Map<String, Set<String>> metricsRead(List<Query> queries) {
        Map<String, Set<String>> read = new TreeMap<>();
        for (Query q : queries) {
            metricNames(q.expr()).forEach(name -> read.computeIfAbsent(name, n -> new TreeSet<>()).add(q.source()));
        }
        read.keySet().removeAll(PROMETHEUS_OWN);
        queries.stream().filter(q -> q.records() != null).forEach(q -> read.remove(q.records()));
        return read;
    }

    /** The sample names of a Prometheus text exposition ({@code name{labels} value} lines). */
    public static Set<String> exposedNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            names.add(line.substring(0, end));
        }
        return names;
    }

    private static void collectJson(String source, JsonNode node, List<Query> out) {
        if (node.isObject()) {
            JsonNode expr = node.get("expr");
            if (expr != null && expr.isString() && !expr.asString().isBlank()) {
                out.add(new Query(source, expr.asString(), null));
            }
            node.properties().forEach(e -> collectJson(source, e.getValue(), out));
        } else if (node.isArray()) {
            node.forEach(child -> collectJson(source, child, out));
        }
    }

    @SuppressWarnings("unchecked")
    private static void collectRules(String source, Path file, List<Query> out) {
        try (InputStream in = Files.newInputStream(file)) {
            Object doc = new Yaml().load(in);
            if (!(doc instanceof Map<?, ?> map) || !(map.get("groups") instanceof List<?> groups)) {
                return; // not a rule file (prometheus.yml itself)
            }
            for (Object group : groups) {
                for (Object rule : (List<Object>) ((Map<String, Object>) group).getOrDefault("rules", List.of())) {
                    Map<String, Object> r = (Map<String, Object>) rule;
                    Object record = r.get("record");
                    Object name = r.getOrDefault("alert", record);
                    out.add(new Query(source + " " + name, String.valueOf(r.get("expr")),
                            record == null ? null : record.toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> files(Path dir, String... suffixes) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> Stream.of(suffixes).anyMatch(s -> p.getFileName().toString().endsWith(s)))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
