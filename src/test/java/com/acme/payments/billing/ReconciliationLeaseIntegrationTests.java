package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.invoice;
import static com.acme.payments.stripe.StripeFixtures.month;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
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

    @Autowired
    BillingProperties properties;

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
        double skippedBefore = skipped(meters) + skipped(otherMeters);
        double runsBefore = runs(meters) + runs(otherMeters);

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
        assertThat(skipped(meters) + skipped(otherMeters) - skippedBefore).isEqualTo(1.0);
        assertThat(runs(meters) + runs(otherMeters) - runsBefore).isEqualTo(1.0);

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

    @Test
    @DisplayName("a night whose runner died mid-run is finished by another instance the same night, once its short lease lapsed")
    void aNightWhoseRunnerDiedIsFinishedTheSameNight() {
        LocalDate night = LocalDate.of(2033, 3, 1 + (int) (Math.random() * 28));
        ReconciliationSweeper other = second.getBean(ReconciliationSweeper.class);
        assertThat(other.runIfDue(at(night, 2, 0)).ran()).as("before the cron's 03:17 firing").isFalse();
        assertThat(runs.find(night)).isEmpty();

        // 03:17: a runner takes the night as every runner does (the configured lease), then its process dies
        assertThat(runs.take(night, "dead-host/1/0", properties.reconciliation().lease())).isTrue();
        double skippedBefore = skipped(otherMeters());
        assertThat(other.runIfDue(at(night, 3, 20)).ran()).as("a live lease is left alone").isFalse();
        assertThat(skipped(otherMeters())).as("nor counted as skipped at every check").isEqualTo(skippedBefore);

        // 15 minutes on without a heartbeat (the database clock moved by moving the row back)
        jdbc.sql("""
                UPDATE billing_reconciliation_run SET started_at = started_at - interval '15 minutes',
                       lease_until = lease_until - interval '15 minutes' WHERE night = :n""").param("n", night).update();
        assertThat(other.runIfDue(at(night, 3, 32)).ran()).as("the dead runner's night, taken over").isTrue();

        Run run = runs.find(night).orElseThrow();
        assertThat(run.finished()).isTrue();
        assertThat(run.owner()).isNotEqualTo("dead-host/1/0");
        assertThat(sweeper.runIfDue(at(night, 3, 37)).ran()).as("finished: no instance runs it again").isFalse();
        assertThat(other.runIfDue(at(night, 23, 59)).ran()).isFalse();
    }

    @Test
    @DisplayName("a live runner renews its lease as it goes: a pass longer than the lease is never taken over")
    void aLiveRunnersLeaseIsRenewedAndNotTakenOver() throws Exception {
        LocalDate night = LocalDate.of(2034, 4, 1 + (int) (Math.random() * 28));
        // an instance whose lease (4 s) is shorter than its pass (4 subscriptions of 1.5 s each)
        try (ConfigurableApplicationContext shortLease = Instances.start(Map.of("stripe.api-base", PspStub.baseUrl(),
                "billing.reconciliation.lease", "4s"))) {
            ReconciliationSweeper runner = shortLease.getBean(ReconciliationSweeper.class);
            runner.run(night.minusDays(1)); // warm: its first Stripe call alone may outlast the lease
            List<String> slow = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String subscription = id("sub");
                subscribed(id("user"), subscription);
                slow.add(subscription);
                psp.stubFor(get(urlPathEqualTo("/v1/subscriptions/" + subscription)).willReturn(json("{}")
                        .withFixedDelay(1500)));
            }
            CompletableFuture<Result> pass = CompletableFuture.supplyAsync(() -> runner.run(night));
            while (runs.find(night).isEmpty() && !pass.isDone()) {
                Thread.sleep(20); // the runner holds the night first; the checks below come after it
            }
            List<Result> checks = new java.util.ArrayList<>();
            while (!pass.isDone()) {
                checks.add(sweeper.runIfDue(at(night, 4, 0)));
                Thread.sleep(250);
            }
            assertThat(pass.get(60, TimeUnit.SECONDS).ran()).isTrue();
            assertThat(checks).as("checks while the pass ran").hasSizeGreaterThan(10)
                    .as("never taken over").noneMatch(Result::ran);
            assertThat(shortLease.getBean(MeterRegistry.class)
                    .counter("payments.job.fenced", "task", ReconciliationSweeper.JOB).count()).isZero();
            Run run = runs.find(night).orElseThrow();
            assertThat(run.finished()).isTrue();
            assertThat(run.subscriptions()).isGreaterThanOrEqualTo(slow.size());
        }
    }

    private static ZonedDateTime at(LocalDate night, int hour, int minute) {
        return night.atTime(hour, minute).atZone(ZoneOffset.UTC);
    }

    private static MeterRegistry otherMeters() {
        return second.getBean(MeterRegistry.class);
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
        return registry.counter("payments.job.runs", "task", ReconciliationSweeper.JOB).count();
    }
}
