package com.acme.payments.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import com.acme.payments.support.OpsQueries;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shape of the ops files: every alert has a {@code for:} and a runbook section,
 * the dashboard parses and reads only the provisioned datasource. That the metrics they name exist is
 * {@link OpsMetricsIntegrationTests}.
 */
class OpsFilesTests {

    static final Path ALERTS = Path.of("ops/prometheus/alerts.yml");
    static final Path DASHBOARD = Path.of("ops/grafana/dashboards/payments.json");
    private static final Path RUNBOOK = Path.of("docs/runbook.md");
    private static final Path DATASOURCE = Path.of("ops/grafana/provisioning/datasources/prometheus.yml");
    private static final Pattern RUNBOOK_URL = Pattern.compile("https://\\S+/docs/runbook\\.md#([a-z0-9-]+)");

    @Test
    @DisplayName("every alert has a for:, a severity, and a runbook_url into a section of docs/runbook.md")
    void everyAlertHasAForAndARunbookSection() throws IOException {
        Set<String> anchors = headingAnchors(Files.readString(RUNBOOK));
        List<Map<String, Object>> rules = rules();
        assertThat(rules).isNotEmpty();
        for (Map<String, Object> rule : rules) {
            String name = (String) rule.get("alert");
            assertThat(name).as("a recording rule has no place here").isNotNull();
            assertThat(rule.get("for")).as(name + " for:").isNotNull();
            assertThat(labels(rule, "labels")).as(name + " severity").containsKey("severity");
            String url = labels(rule, "annotations").get("runbook_url");
            assertThat(url).as(name + " runbook_url").isNotNull();
            Matcher m = RUNBOOK_URL.matcher(url);
            assertThat(m.matches()).as(name + " runbook_url into docs/runbook.md: " + url).isTrue();
            assertThat(m.group(1)).as(name + " anchor").isEqualTo(name.toLowerCase(Locale.ROOT));
            assertThat(anchors).as("docs/runbook.md has a section for " + name).contains(m.group(1));
        }
    }

    @Test
    @DisplayName("the alert rules cover every condition the docs say to alert on")
    void theRulesCoverTheDocumentedConditions() throws IOException {
        Set<String> read = OpsQueries.metricNames(ALERTS);
        assertThat(read).contains("payments_attempts_unknown_oldest_age_seconds", "payments_outbox_dead",
                "payments_outbox_unroutable", "payments_outbox_oldest_pending_age_seconds",
                "payments_inbox_unprocessed_oldest_age_seconds", "stripe_webhook_events_total",
                "stripe_claim_takeovers_total", "payments_job_failures_total",
                "tasks_scheduled_execution_seconds_count", "up",
                // Every stuck state and every failure
                "payments_operations_unknown_oldest_age_seconds",
                "payments_duplicate_charges_unrefunded_oldest_age_seconds", "payments_discrepancies_total",
                "payments_refunds_total", "payments_duplicate_refunds_total",
                "billing_reconciliation_last_finished_age_seconds", "hikaricp_connections_pending",
                "http_server_requests_seconds_count", "payments_psp_calls_total");
    }

    @Test
    @DisplayName("the dashboard parses, has queries, and every panel reads the provisioned datasource")
    void theDashboardReadsTheProvisionedDatasource() throws IOException {
        JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
        assertThat(dashboard.path("uid").asString()).isEqualTo("payments-overview");
        String uid;
        try (Reader reader = Files.newBufferedReader(DATASOURCE)) {
            Map<String, Object> provisioning = new Yaml().load(reader);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> sources = (List<Map<String, Object>>) provisioning.get("datasources");
            uid = (String) sources.get(0).get("uid");
        }
        int targets = 0;
        for (JsonNode panel : dashboard.path("panels")) {
            if ("row".equals(panel.path("type").asString())) {
                continue;
            }
            assertThat(panel.path("datasource").path("uid").asString()).as(panel.path("title").asString())
                    .isEqualTo(uid);
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("expr").asString()).as(panel.path("title").asString()).isNotBlank();
                targets++;
            }
        }
        assertThat(targets).isEqualTo(OpsQueries.queries(DASHBOARD).size() - 1); // + the instance variable
        assertThat(OpsQueries.metricNames(DASHBOARD)).isNotEmpty();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules() throws IOException {
        try (Reader reader = Files.newBufferedReader(ALERTS)) {
            Map<String, Object> file = new Yaml().load(reader);
            return ((List<Map<String, Object>>) file.get("groups")).stream()
                    .flatMap(g -> ((List<Map<String, Object>>) g.get("rules")).stream()).toList();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> labels(Map<String, Object> rule, String key) {
        Object value = rule.get(key);
        return value == null ? Map.of() : (Map<String, String>) value;
    }

    /** GitHub's anchors for the markdown headings: lower case, punctuation dropped, spaces to dashes. */
    private static Set<String> headingAnchors(String markdown) {
        return markdown.lines().filter(l -> l.startsWith("#")).map(l -> l.replaceFirst("^#+\\s*", ""))
                .map(h -> h.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 -]", "").replace(' ', '-'))
                .collect(Collectors.toSet());
    }
}
