package com.acme.payments.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpsQueriesTests {

    @Test
    void readsTheMetricNamesOfAQueryAndNothingElse() {
        assertThat(OpsQueries.metricNames("max(payments_attempts_unknown_oldest_age_seconds) > 15 * 60"))
                .containsExactly("payments_attempts_unknown_oldest_age_seconds");
        assertThat(OpsQueries.metricNames("""
                histogram_quantile(0.99, sum by (le, kind) (rate(payments_outbox_delivery_latency_seconds_bucket\
                {application="payments", instance=~"$instance"}[$__rate_interval])))"""))
                .containsExactly("payments_outbox_delivery_latency_seconds_bucket");
        assertThat(OpsQueries.metricNames("""
                sum(increase(payments_job_failures_total{job!~"a|b"}[15m])) by (job) > 0 \
                and on (job) up{job="payments"} == 0 unless absent(hikaricp_connections_active) offset 5m"""))
                .containsExactly("hikaricp_connections_active", "payments_job_failures_total", "up");
        assertThat(OpsQueries.metricNames("1e3 * rate(jvm_gc_pause_seconds_sum[${__interval}])"))
                .containsExactly("jvm_gc_pause_seconds_sum");
    }

    @Test
    void theServiceNeedNotExportWhatPrometheusOrARecordingRuleMakes() {
        var queries = java.util.List.of(
                new OpsQueries.Query("alerts.yml InstanceDown", "up{job=\"payments\"} == 0", null),
                new OpsQueries.Query("rules.yml job:x:rate5m", "sum(rate(payments_x_total[5m]))", "job:x:rate5m"),
                new OpsQueries.Query("alerts.yml X", "job:x:rate5m > 1", null));
        assertThat(OpsQueries.metricsRead(queries)).containsOnlyKeys("payments_x_total");
    }

    @Test
    void readsTheSampleNamesOfAScrape() {
        assertThat(OpsQueries.exposedNames("""
                # HELP up whatever
                # TYPE payments_x_total counter
                payments_x_total{application="payments",outcome="a b"} 1.0
                jvm_threads_live_threads 12
                """)).containsExactly("jvm_threads_live_threads", "payments_x_total");
    }
}
