package com.acme.payments.support;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.Yaml;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PromQL queries of the ops files (the Grafana dashboard JSON, the Prometheus alert rules) and the
 * metric names they read, so tests can compare them with a real scrape of {@code /actuator/prometheus}.
 * The parser is deliberately small: it removes strings, label matchers, ranges and grouping clauses, then
 * every remaining identifier that is not a function call, keyword or Grafana variable is a metric name.
 */
public final class OpsQueries {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    // possessive, so "sum (" cannot backtrack into "su"; not after a digit ("5m"), "." or "$" (Grafana variables)
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.$:])[a-zA-Z_:][a-zA-Z0-9_:]*+(?!\\s*\\()");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "and", "or", "unless", "bool", "offset", "inf", "nan", "Inf", "NaN");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{\\s]");

    /** Series Prometheus itself writes for every target (an instance-down rule reads {@code up}). */
    public static final Set<String> PROMETHEUS_SERIES = Set.of("up", "scrape_duration_seconds",
            "scrape_samples_scraped", "scrape_samples_post_metric_relabeling", "scrape_series_added");

    private OpsQueries() {
    }

    /** The metric names every query in a dashboard ({@code .json}) or rule file ({@code .yml}) reads. */
    public static Set<String> metricNames(Path file) throws IOException {
        Set<String> names = new TreeSet<>();
        for (String query : queries(file)) {
            names.addAll(metricNamesOf(query));
        }
        return names;
    }

    /** Every PromQL expression in the file: dashboard targets and query variables, or rule expressions. */
    public static List<String> queries(Path file) throws IOException {
        List<String> queries = new ArrayList<>();
        String name = file.getFileName().toString();
        if (name.endsWith(".json")) {
            collectDashboard(JsonMapper.builder().build().readTree(Files.readString(file)), queries);
        } else if (name.endsWith(".yml") || name.endsWith(".yaml")) {
            try (Reader reader = Files.newBufferedReader(file)) {
                collectRules(new Yaml().load(reader), queries);
            }
        } else {
            throw new IllegalArgumentException("neither a dashboard (.json) nor a rule file (.yml): " + file);
        }
        return queries;
    }

    /** The metric names one PromQL expression reads. */
    public static Set<String> metricNamesOf(String query) {
        String q = STRING.matcher(query).replaceAll(" ");
        q = MATCHERS.matcher(q).replaceAll(" ");
        q = RANGE.matcher(q).replaceAll(" ");
        q = GROUPING.matcher(q).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(q);
        while (m.find()) {
            String token = m.group();
            if (!KEYWORDS.contains(token)) {
                names.add(token);
            }
        }
        return names;
    }

    /** The sample names of a Prometheus text exposition (with {@code _total}, {@code _bucket}, …). */
    public static Set<String> scrapedNames(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private static void collectDashboard(JsonNode node, List<String> queries) {
        if (node.isObject()) {
            JsonNode expr = node.get("expr");
            if (expr != null && expr.isString() && !expr.asString().isBlank()) {
                queries.add(expr.asString());
            }
            JsonNode query = node.get("query");
            if ("query".equals(node.path("type").asString(null))) {
                String text = query == null ? null
                        : query.isString() ? query.asString() : query.path("query").asString(null);
                if (text != null && !text.isBlank()) {
                    queries.add(labelValuesMetric(text));
                }
            }
            node.values().forEach(child -> collectDashboard(child, queries));
        } else if (node.isArray()) {
            node.forEach(child -> collectDashboard(child, queries));
        }
    }

    /** {@code promql_expr_test[].expr} of a promtool test file; its input series are fixtures, not queries. */
    @SuppressWarnings("unchecked")
    private static void collectRuleTests(List<?> tests, List<String> queries) {
        for (Object test : tests) {
            if (((Map<String, Object>) test).get("promql_expr_test") instanceof List<?> exprs) {
                for (Object expr : exprs) {
                    Object text = ((Map<String, Object>) expr).get("expr");
                    if (text != null) {
                        queries.add(text.toString());
                    }
                }
            }
        }
    }

    /** {@code label_values(metric{…}, label)} reads {@code metric}; the label argument is not a metric. */
    private static String labelValuesMetric(String variableQuery) {
        Matcher m = Pattern.compile("^\\s*label_values\\s*\\((.*),\\s*[a-zA-Z_][a-zA-Z0-9_]*\\s*\\)\\s*$")
                .matcher(variableQuery);
        return m.matches() ? m.group(1) : variableQuery;
    }

    @SuppressWarnings("unchecked")
    private static void collectRules(Object document, List<String> queries) {
        if (document instanceof Map<?, ?> root && root.get("rule_files") != null
                && root.get("tests") instanceof List<?> tests) {
            collectRuleTests(tests, queries); // a promtool unit-test file: its own expressions only
            return;
        }
        if (!(document instanceof Map<?, ?> root) || !(root.get("groups") instanceof List<?> groups)) {
            throw new IllegalArgumentException("a rule file has a top-level 'groups' list");
        }
        for (Object group : groups) {
            Object rules = ((Map<String, Object>) group).get("rules");
            if (rules instanceof List<?> list) {
                for (Object rule : list) {
                    Object expr = ((Map<String, Object>) rule).get("expr");
                    if (expr != null) {
                        queries.add(expr.toString());
                    }
                }
            }
        }
    }
}
