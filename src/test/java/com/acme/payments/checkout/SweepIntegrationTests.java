package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCount;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.sweep.FencedApplier;
import com.acme.payments.sweep.Outcome;
import com.acme.payments.sweep.Sweeps;

/** The unknown-attempt sweep: what no request resolves, the sweep does, through the same resolve(). */
class SweepIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    AttemptStore attempts;

    @Autowired
    AttemptClaimApplier claims;

    @Autowired
    Sweeps sweeps;

    @Autowired
    DepositApplier applier;

    @Autowired
    FencedApplier fenced;

    @Autowired
    TransactionTemplate transactions;

    @BeforeEach
    void otherTestsRowsLookUnknownToThePsp() {
        psp.stubFor(findCall().atPriority(10).willReturn(nothingFound()));
    }

    /** An order whose owner committed its IN_FLIGHT claim and then died before the PSP call returned. */
    Attempt abandonedClaim(String reference) {
        var order = new Shop(http()).createOrder("9.00", "EUR");
        long orderId = jdbc.sql("SELECT id FROM orders WHERE order_ref = :r").param("r", order.orderRef())
                .query(Long.class).single();
        AttemptStore.Claim claim = claims.claim(orderId, new BigDecimal("9.00"), "EUR", "https://shop.test/r", reference);
        assertThat(claim.owner()).isTrue();
        return claim.attempt();
    }

    void backdate(Attempt attempt, int minutes) {
        jdbc.sql("UPDATE psp_attempt SET updated_at = now() - :m * interval '1 minute' WHERE id = :id")
                .param("m", minutes).param("id", attempt.id()).update();
    }

    /** Another instance's claim outlived its lease (database clock): the row is free to claim again. */
    void expireLease(Attempt attempt) {
        jdbc.sql("UPDATE psp_attempt SET lease_until = now() - interval '1 second' WHERE id = :id")
                .param("id", attempt.id()).update();
    }

    Attempt reload(Attempt attempt) {
        return attempts.find(attempt.id()).orElseThrow();
    }

    String orderStatus(Attempt attempt) {
        return jdbc.sql("SELECT status FROM orders WHERE id = :id").param("id", attempt.orderId()).query(String.class)
                .single();
    }

    @Test
    @DisplayName("an owner that died between claim and PSP call is aged to UNKNOWN and resolved by the same pass, never POSTed")
    void deadOwnerIsAgedAndResolved() {
        String ref = "chk_dead_" + System.nanoTime();
        Attempt attempt = abandonedClaim(ref);
        backdate(attempt, 10); // older than payments.sweep.in-flight-age (5m)
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                .willReturn(found(payment("pay-" + ref, ref, "DEPOSIT", "COMPLETED", "9.00", "EUR"))));

        sweeps.run("checkout"); // aged to UNKNOWN, then due at once: the pass's claim takes it
        assertThat(reload(attempt).state()).isEqualTo(AttemptState.READY);
        assertThat(orderStatus(attempt)).isEqualTo("PAID");
        assertThat(createCount(psp)).isZero();
    }

    @Test
    @DisplayName("the sweep looks at once: an attempt just turned UNKNOWN is resolved by the next pass, not one lease later")
    void justUnknownAttemptIsResolvedByTheNextPass() {
        String ref = "chk_now_" + System.nanoTime();
        Attempt attempt = abandonedClaim(ref);
        attempts.markUnknown(attempt.id()); // updated_at = now(): no backdating, no lease to wait out
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                .willReturn(found(payment("pay-" + ref, ref, "DEPOSIT", "COMPLETED", "9.00", "EUR"))));

        sweeps.run("checkout");

        assertThat(reload(attempt).state()).isEqualTo(AttemptState.READY);
        assertThat(orderStatus(attempt)).isEqualTo("PAID");
    }

    @Test
    @DisplayName("an UNKNOWN attempt the PSP still does not know stays UNKNOWN and is looked at again by the next pass, not one lease later")
    void unknownToThePspStaysUnknownAndIsRetried() {
        String ref = "chk_unseen_" + System.nanoTime();
        Attempt attempt = abandonedClaim(ref);
        attempts.markUnknown(attempt.id());

        sweeps.run("checkout");
        Attempt afterFirst = reload(attempt);
        assertThat(afterFirst.state()).isEqualTo(AttemptState.UNKNOWN);
        assertThat(afterFirst.leaseVersion()).isEqualTo(1);

        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                .willReturn(found(payment("pay-" + ref, ref, "DEPOSIT", "PENDING", "9.00", "EUR"))));
        sweeps.run("checkout");
        assertThat(reload(attempt).state()).isEqualTo(AttemptState.READY);
        assertThat(reload(attempt).leaseVersion()).isEqualTo(2);
        assertThat(orderStatus(attempt)).isEqualTo("PROCESSING");
    }

    @Test
    @DisplayName("the lease hides a claimed attempt from other instances' claims while its pass holds it, then frees it")
    void leaseHidesAClaimedRowFromOthersUntilItExpires() {
        String ref = "chk_hidden_" + System.nanoTime();
        Attempt attempt = abandonedClaim(ref);
        attempts.markUnknown(attempt.id());
        List<Attempt> first = attempts.claimUnknown(java.time.Duration.ofMinutes(2), 1000);
        assertThat(first).anyMatch(a -> a.id() == attempt.id());

        assertThat(attempts.claimUnknown(java.time.Duration.ofMinutes(2), 1000)).as("held by the first pass")
                .noneMatch(a -> a.id() == attempt.id());
        expireLease(attempt);
        assertThat(attempts.claimUnknown(java.time.Duration.ofMinutes(2), 1000)).as("its lease ran out")
                .anyMatch(a -> a.id() == attempt.id());
    }

    @Test
    @DisplayName("an UNKNOWN attempt the PSP declined ends FAILED and frees the order")
    void declinedUnknownEndsFailedAndFreesTheOrder() {
        String ref = "chk_declined_" + System.nanoTime();
        Attempt attempt = abandonedClaim(ref);
        attempts.markUnknown(attempt.id());
        backdate(attempt, 10);
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                .willReturn(found(payment("pay-" + ref, ref, "DEPOSIT", "DECLINED", "9.00", "EUR"))));

        sweeps.run("checkout");

        assertThat(reload(attempt).state()).isEqualTo(AttemptState.FAILED);
        assertThat(orderStatus(attempt)).isEqualTo("PAYMENT_FAILED");
        String orderRef = jdbc.sql("SELECT order_ref FROM orders WHERE id = :id").param("id", attempt.orderId())
                .query(String.class).single();
        psp.stubFor(com.acme.payments.support.PspFixtures.createCall()
                .willReturn(com.acme.payments.support.PspFixtures.created("pay-new-" + ref, "CHECKOUT", "9.00", "EUR")));
        Response again = new Shop(http()).checkout(orderRef);
        assertThat(again.status()).isEqualTo(200);
    }

    @Test
    @DisplayName("a sweeper whose lease was taken over writes nothing (fenced)")
    void takenOverLeaseIsFenced() {
        String ref = "chk_zombie_" + System.nanoTime();
        Attempt attempt = abandonedClaim(ref);
        attempts.markUnknown(attempt.id());
        backdate(attempt, 10);
        List<Attempt> first = attempts.claimUnknown(java.time.Duration.ofMinutes(2), 1000);
        Attempt zombie = first.stream().filter(a -> a.id() == attempt.id()).findFirst().orElseThrow();
        expireLease(attempt); // the zombie's lease expired; another instance claims it
        assertThat(attempts.claimUnknown(java.time.Duration.ofMinutes(2), 1000)).anyMatch(a -> a.id() == attempt.id());

        var payment = com.acme.payments.psp.PaymentPayloadRules.fromJson(tools.jackson.databind.json.JsonMapper.builder().build()
                .readTree(payment("pay-" + ref, ref, "DEPOSIT", "COMPLETED", "9.00", "EUR")));
        assertThat(fenced.apply(attempts, zombie.lease(), () -> {
            applier.apply(zombie, payment);
            return Outcome.RESOLVED;
        })).isEqualTo(Outcome.FENCED);
        assertThat(reload(attempt).state()).isEqualTo(AttemptState.UNKNOWN);
        assertThat(orderStatus(attempt)).isEqualTo("AWAITING_PAYMENT");
    }

    @Test
    @DisplayName("held lock: a second sweeper skips the rows the first one holds")
    void secondSweeperSkipsHeldRows() throws Exception {
        String ref = "chk_held_" + System.nanoTime();
        Attempt attempt = abandonedClaim(ref);
        attempts.markUnknown(attempt.id());
        backdate(attempt, 10);
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<List<Attempt>> holder = CompletableFuture.supplyAsync(() -> transactions.execute(tx -> {
            // select-for-update inside an open transaction: the row stays locked until commit
            List<Long> locked = jdbc.sql("SELECT id FROM psp_attempt WHERE id = :id FOR UPDATE")
                    .param("id", attempt.id()).query(Long.class).list();
            claimed.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return locked.isEmpty() ? List.<Attempt>of() : List.of(attempt);
        }));
        assertThat(claimed.await(10, TimeUnit.SECONDS)).isTrue();
        List<Attempt> second = attempts.claimUnknown(java.time.Duration.ofMinutes(2), 1000);
        release.countDown();
        assertThat(holder.get(10, TimeUnit.SECONDS)).hasSize(1);
        assertThat(second).noneMatch(a -> a.id() == attempt.id());
        assertThat(attempts.claimUnknown(java.time.Duration.ofMinutes(2), 1000)).as("free again after commit")
                .anyMatch(a -> a.id() == attempt.id());
    }

    @Test
    @DisplayName("job metrics exist and move: scrape before and after a sweep")
    void metricsMove() {
        double before = scrape("payments_job_runs_total{application=\"payments\",task=\"checkout-sweep\"}");
        sweeps.run("checkout");
        double after = scrape("payments_job_runs_total{application=\"payments\",task=\"checkout-sweep\"}");
        assertThat(after).isEqualTo(before + 1);
        String body = http().get("/actuator/prometheus").body();
        assertThat(body).contains("payments_job_claimed_total", "payments_job_resolved_total",
                "payments_job_still_unknown_total", "payments_job_failures_total", "payments_job_duration_seconds",
                "payments_attempts_unknown{", "payments_attempts_unknown_oldest_age_seconds{",
                "payments_inbox_unprocessed_oldest_age_seconds");
    }

    double scrape(String series) {
        return http().get("/actuator/prometheus").body().lines().filter(l -> l.startsWith(series + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElse(0);
    }
}
