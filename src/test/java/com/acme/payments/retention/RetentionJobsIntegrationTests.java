package com.acme.payments.retention;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Every retention job is one of the framework's: registered once, counted under its name. */
class RetentionJobsIntegrationTests extends IntegrationTest {

    @Autowired
    Retentions retentions;
    @Autowired
    MeterRegistry registry;
    @Autowired
    JdbcClient jdbc;

    @Test
    @DisplayName("the outbox, Stripe events, the inbox and customer e-mails are pruned by the one retention mechanism")
    void allFourRetentionJobsAreRegistered() {
        assertThat(retentions.jobs()).containsExactly("customer-email-erasure", "inbox-prune", "outbox-prune",
                "stripe-event-prune");
    }

    @Test
    @DisplayName("a pass counts its run, its duration and the rows it took under the job's name")
    void aPassRecordsTheJobMeters() {
        jdbc.sql("""
                INSERT INTO psp_webhook_event (payment_id, state, payload, processed_at, processed_reason)
                VALUES ('pay-retention-meter-' || gen_random_uuid(), 'COMPLETED', '{}', now() - interval '100 days',
                        'applied')
                """).update();
        double runs = count("payments.job.runs", "inbox-prune");
        double rows = count("payments.job.claimed", "inbox-prune");

        retentions.run("inbox-prune");

        assertThat(count("payments.job.runs", "inbox-prune")).isEqualTo(runs + 1);
        assertThat(count("payments.job.claimed", "inbox-prune")).isGreaterThanOrEqualTo(rows + 1);
    }

    /** The counter of that job, whatever its tag is called. */
    private double count(String name, String job) {
        return registry.find(name).counters().stream()
                .filter(c -> c.getId().getTags().stream().anyMatch(t -> t.getValue().equals(job)))
                .mapToDouble(Counter::count).sum();
    }
}
