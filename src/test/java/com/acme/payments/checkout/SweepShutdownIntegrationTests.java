package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Instances;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.SweepFixtures;
import com.github.tomakehurst.wiremock.WireMockServer;

/**
 * An instance stopped in the middle of a sweep batch abandons the rest of it: the rows stay UNKNOWN
 * under a lease that expires, and the next sweep on another instance picks every one of them up.
 */
class SweepShutdownIntegrationTests {

    @Test
    void aStoppedInstanceLeavesNothingTheNextSweepCannotPickUp() {
        WireMockServer psp = PspStub.server();
        psp.resetAll();
        psp.stubFor(findCall().willReturn(nothingFound().withFixedDelay(300))); // a slow PSP
        String run = UUID.randomUUID().toString().substring(0, 8);
        ConfigurableApplicationContext stopping = Instances.start(Map.of(
                "payments.sweep.enabled", "true",
                "payments.sweep.interval", "200ms",
                "payments.sweep.initial-delay", "1s",
                "payments.sweep.batch-size", "1000",
                "payments.sweep.lease", "10m"));
        JdbcClient jdbc = stopping.getBean(JdbcClient.class);
        for (int i = 0; i < 20; i++) {
            String ref = "chk_stop_" + run + "_" + i;
            SweepFixtures.unknownAttempt(jdbc, ref);
        }
        String mine = "chk_stop_" + run + "_%";
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql(
                "SELECT count(*) FROM psp_attempt WHERE reference_id LIKE :p AND lease_version = 1")
                .param("p", mine).query(Integer.class).single() == 20);
        int askedBeforeStop = psp.getAllServeEvents().size();
        stopping.close(); // mid-batch: 20 rows × 300 ms cannot have finished

        int asked = psp.getAllServeEvents().size();
        assertThat(asked).as("the batch was abandoned, not finished").isLessThan(20 + askedBeforeStop);
        try (var c = com.acme.payments.support.TestDatabase.connect(); var s = c.createStatement()) {
            s.executeUpdate("UPDATE psp_attempt SET lease_until = now() - interval '1 second' WHERE reference_id LIKE '"
                    + mine + "'"); // the stopped instance's lease expires
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        ConfigurableApplicationContext next = Instances.start(Map.of("payments.sweep.lease", "10m"));
        try {
            List<Attempt> reclaimed = next.getBean(AttemptStore.class).claimUnknown(Duration.ofMinutes(10), 1000);
            assertThat(reclaimed.stream().filter(a -> a.referenceId().startsWith("chk_stop_" + run)))
                    .hasSize(20).allMatch(a -> a.state() == AttemptState.UNKNOWN);
        } finally {
            next.close();
        }
    }
}
