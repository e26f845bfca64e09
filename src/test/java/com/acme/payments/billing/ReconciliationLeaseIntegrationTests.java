package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.invoice;
import static com.acme.payments.stripe.StripeFixtures.month;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.billing.ReconciliationRunStore.Run;
import com.acme.payments.billing.ReconciliationSweeper.Result;
import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Instances;
import com.acme.payments.support.PspStub;

import io.micrometer.core.instrument.MeterRegistry;

/** The nightly reconciliation runs once per night across two instances, and records who ran it and what it granted. */
class ReconciliationLeaseIntegrationTests extends StripeIntegrationTest {

    private static ConfigurableApplicationContext second;

    @Autowired
    ReconciliationSweeper sweeper;

    @Autowired
    ReconciliationRunStore runs;

    @Autowired
    MeterRegistry meters;

    @Autowired
    PlatformTransactionManager transactions;

    private final String userId = id("user");
    private final String subscriptionId = id("sub");

    @BeforeAll
    static void startSecondInstance() {
        second = Instances.start(Map.of("stripe.api-base", PspStub.baseUrl()));
    }

    @AfterAll
    static void stopSecondInstance() {
        if (second != null) {
            second.close();
        }
    }

    @Test
    @DisplayName("before any night finished, the last-finished-age gauge reads NaN instead of failing its refresh")
    void lastFinishedAgeIsNaNBeforeTheFirstRun() {
        TransactionTemplate rolledBack = new TransactionTemplate(transactions);
        Double age = rolledBack.execute(tx -> {
            jdbc.sql("DELETE FROM billing_reconciliation_run").update(); // rolled back: other tests' nights stay
            tx.setRollbackOnly();
            return runs.lastFinishedAgeSeconds();
        });
        assertThat(age).isNaN();
    }

    @Test
    @DisplayName("two instances firing the same night: one runs, grants the missing period once, and says so")
    void oneRunPerNightAcrossInstances() throws Exception {
        subscribed(userId, subscriptionId);
        stripeHasOneMissedRenewal();
        ReconciliationSweeper other = second.getBean(ReconciliationSweeper.class);
        MeterRegistry otherMeters = second.getBean(MeterRegistry.class);
        LocalDate night = LocalDate.of(2031, 1, 1 + (int) (Math.random() * 28));
        CyclicBarrier together = new CyclicBarrier(2);

        CompletableFuture<Result> here = CompletableFuture.supplyAsync(() -> race(together, sweeper, night));
        CompletableFuture<Result> there = CompletableFuture.supplyAsync(() -> race(together, other, night));
        List<Result> results = List.of(here.get(60, TimeUnit.SECONDS), there.get(60, TimeUnit.SECONDS));

        assertThat(results).filteredOn(Result::ran).hasSize(1);
        assertThat(grantCount(subscriptionId)).isEqualTo(2); // checkout + the missed renewal, once
        assertThat(credits(userId)).isEqualTo(1000);
        psp.verify(1, getRequestedFor(urlPathEqualTo("/v1/subscriptions/" + subscriptionId)));
        Run run = runs.find(night).orElseThrow();
        assertThat(run.finished()).isTrue();
        assertThat(run.owner()).isNotBlank();
        assertThat(run.granted()).isGreaterThanOrEqualTo(1);
        assertThat(run.grantedPeriods()).contains("\"subscriptionId\": \"" + subscriptionId + "\"",
                "\"periodStart\": " + month(1));
        assertThat(skipped(meters) + skipped(otherMeters)).isEqualTo(1.0);
        assertThat(runs(meters) + runs(otherMeters)).isEqualTo(1.0);

        // fired again the same night (a restart, a second scheduler): nothing runs
        assertThat(sweeper.run(night).ran()).isFalse();
        assertThat(other.run(night).ran()).isFalse();
        psp.verify(1, getRequestedFor(urlPathEqualTo("/v1/subscriptions/" + subscriptionId)));
    }

    @Test
    @DisplayName("a night whose runner died (unfinished, lease past) is taken over by another instance")
    void anAbandonedNightIsTakenOver() {
        LocalDate night = LocalDate.of(2032, 2, 1 + (int) (Math.random() * 28));
        jdbc.sql("""
                INSERT INTO billing_reconciliation_run (night, owner, started_at, lease_until)
                VALUES (:n, 'dead-host/1/0', now() - interval '7 hours', now() - interval '1 hour')
                """).param("n", night).update();

        assertThat(sweeper.run(night).ran()).isTrue();

        Run run = runs.find(night).orElseThrow();
        assertThat(run.finished()).isTrue();
        assertThat(run.owner()).isNotEqualTo("dead-host/1/0");
    }

    private void stripeHasOneMissedRenewal() {
        psp.stubFor(get(urlPathEqualTo("/v1/subscriptions/" + subscriptionId)).willReturn(json(
                StripeFixtures.subscription(subscriptionId, userId, "active", month(1), month(2), 1, "price_pro"))));
        psp.stubFor(get(urlPathEqualTo("/v1/invoices")).withQueryParam("subscription",
                com.github.tomakehurst.wiremock.client.WireMock.equalTo(subscriptionId)).willReturn(json("""
                { "object": "list", "url": "/v1/invoices", "has_more": false, "data": [ %s ] }
                """.formatted(invoice(id("in"), "subscription_cycle", subscriptionId, userId, month(1), month(2),
                2900, null)))));
        psp.stubFor(get(urlPathEqualTo("/v1/invoices")).atPriority(10).willReturn(json("""
                { "object": "list", "url": "/v1/invoices", "has_more": false, "data": [] }
                """)));
    }

    private static Result race(CyclicBarrier together, ReconciliationSweeper sweeper, LocalDate night) {
        try {
            together.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return sweeper.run(night);
    }

    private static double skipped(MeterRegistry registry) {
        return registry.counter("billing.reconciliation.skipped").count();
    }

    private static double runs(MeterRegistry registry) {
        return registry.counter("payments.job.runs", "job", ReconciliationSweeper.JOB).count();
    }
}
