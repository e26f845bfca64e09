package com.acme.payments.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.OpsQueries;

/** The expression → metric-name parser the dashboard and alert checks rely on. */
class OpsQueriesTests {

    @Test
    void functionsLabelsRangesGroupingAndNumbersAreNotMetrics() {
        assertThat(OpsQueries.metricNamesOf(
                "histogram_quantile(0.99, sum by (le, kind) (rate(payments_outbox_delivery_latency_seconds_bucket"
                        + "{kind=~\"$kind\", application=\"payments\"}[$__rate_interval])))"))
                .containsExactly("payments_outbox_delivery_latency_seconds_bucket");
        assertThat(OpsQueries.metricNamesOf("max(payments_attempts_unknown_oldest_age_seconds) > 15 * 60"))
                .containsExactly("payments_attempts_unknown_oldest_age_seconds");
        assertThat(OpsQueries.metricNamesOf(
                "sum(increase(payments_job_failures_total[10m])) by (job) > 0 and on(job) max(up) offset 5m == 1"))
                .containsExactly("payments_job_failures_total", "up");
        assertThat(OpsQueries.metricNamesOf("rate(a_total[5m]) / ignoring(x) group_left(y) b_seconds_count"))
                .containsExactly("a_total", "b_seconds_count");
        assertThat(OpsQueries.metricNamesOf("sum(jvm_memory_used_bytes{area=\"heap\"}) / 1e6 unless vector(0)"))
                .containsExactly("jvm_memory_used_bytes");
    }

    @Test
    void aPromtoolTestFileReadsNoMetricsOfItsFixtures() throws java.io.IOException {
        // ops/prometheus/ holds the rules and their promtool tests; a reader walking the folder meets both
        assertThat(OpsQueries.metricNames(java.nio.file.Path.of("ops/prometheus/alerts-test.yml"))).isEmpty();
    }

    @Test
    void scrapeSampleNamesIgnoreCommentLines() {
        String exposition = """
                # HELP payments_job_runs_total Job runs
                # TYPE payments_job_runs_total counter
                payments_job_runs_total{application="payments",task="inbox-replay"} 3.0
                process_uptime_seconds 12.5
                """;
        assertThat(OpsQueries.scrapedNames(exposition))
                .containsExactly("payments_job_runs_total", "process_uptime_seconds");
    }
}
