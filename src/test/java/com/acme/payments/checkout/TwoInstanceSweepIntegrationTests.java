package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Instances;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.SweepFixtures;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

/**
 * Two instances (two application contexts, each with its own pool and scheduler) sweep 200 UNKNOWN
 * attempts at once, each resolving four rows of its batch concurrently: each attempt is resolved
 * exactly once, the PSP is asked exactly once per attempt, and nothing is ever POSTed.
 */
class TwoInstanceSweepIntegrationTests {

    static final int ATTEMPTS = 200;

    @Test
    void twoInstancesSweepingAtOnceNeverResolveTheSameRowTwice() {
        WireMockServer psp = PspStub.server();
        psp.resetAll();
        psp.stubFor(findCall().atPriority(10).willReturn(nothingFound())); // rows other tests left behind
        String run = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> settings = Map.of(
                "payments.sweep.enabled", "true",
                "payments.sweep.interval", "100ms",
                "payments.sweep.initial-delay", "0s",
                "payments.sweep.batch-size", "25",
                "payments.sweep.lease", "10m",
                "payments.sweep.concurrency", "4"); // each instance resolves four rows of its batch at once
        ConfigurableApplicationContext first = Instances.start(settings);
        JdbcClient jdbc = first.getBean(JdbcClient.class);
        List<String> references = new ArrayList<>();
        for (int i = 0; i < ATTEMPTS; i++) {
            String ref = "chk_two_" + run + "_" + i;
            references.add(ref);
            psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                    .willReturn(found(payment("pay_" + ref, ref, "DEPOSIT", "COMPLETED", "5.00", "EUR"))));
        }
        // seed the UNKNOWN attempts (and their orders); the first instance may start on them at once
        for (String ref : references) {
            SweepFixtures.unknownAttempt(jdbc, ref);
        }
        ConfigurableApplicationContext second = Instances.start(settings);
        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> jdbc.sql("""
                    SELECT count(*) FROM psp_attempt WHERE reference_id LIKE :p AND state = 'READY'""")
                    .param("p", "chk_two_" + run + "_%").query(Integer.class).single() == ATTEMPTS);
        } finally {
            second.close();
            first.close();
        }

        List<LoggedRequest> lookups = psp.findAll(getRequestedFor(urlPathEqualTo("/api/v1/payments")));
        Map<String, Long> perReference = lookups.stream()
                .map(r -> r.queryParameter("referenceId.eq").firstValue())
                .filter(ref -> ref.startsWith("chk_two_" + run))
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(perReference).hasSize(ATTEMPTS);
        assertThat(perReference.values()).as("the PSP is asked exactly once per attempt").allMatch(n -> n == 1);
        assertThat(psp.findAll(WireMock.postRequestedFor(WireMock.anyUrl())))
                .as("no PSP POST at all").isEmpty();
        try (var c = com.acme.payments.support.TestDatabase.connect();
                var s = c.prepareStatement("""
                        SELECT count(*) FILTER (WHERE o.status = 'PAID'),
                               (SELECT count(*) FROM outbox WHERE kind = 'order_paid' AND aggregate_id LIKE ?)
                          FROM orders o WHERE o.order_ref LIKE ?""")) {
            s.setString(1, "o_chk_two_" + run + "_%");
            s.setString(2, "o_chk_two_" + run + "_%");
            try (var rs = s.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).as("every order paid").isEqualTo(ATTEMPTS);
                assertThat(rs.getInt(2)).as("each resolved exactly once: one order_paid each").isEqualTo(ATTEMPTS);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
