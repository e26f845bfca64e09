package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.acme.payments.stripe.ScriptedHook.SimulatedCrash;
import com.acme.payments.support.Http;

import io.micrometer.core.instrument.MeterRegistry;

/** A worker stopped between receipt and completion, inside the transaction, and after the commit. */
class CrashIntegrationTests extends StripeIntegrationTest {

    @Autowired
    MeterRegistry meters;

    private final String userId = id("user");
    private final String subscriptionId = id("sub");
    private final String eventId = id("evt");
    private String body;

    @BeforeEach
    void subscribedUser() {
        subscribed(userId, subscriptionId);
        body = renewal(eventId, subscriptionId, userId, 1, "conv_crash");
    }

    @AfterEach
    void clearHook() {
        hook.clear(eventId);
    }

    @Test
    @DisplayName("crash-after-receipt-is-retryable")
    void crashAfterReceiptIsRetryable() {
        hook.afterClaim(eventId, () -> {
            throw new SimulatedCrash("after the claim");
        });
        assertThat(deliver(body).status()).isGreaterThanOrEqualTo(500);
        assertThat(eventState(eventId)).isEqualTo("processing"); // a dead worker never released it
        hook.clear(eventId);

        ageClaim(eventId, "3 minutes"); // past the 2-minute claim expiry
        Http.Response retry = deliver(body);

        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.json().has("duplicate")).isFalse();
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(outboxKeys(eventId)).hasSize(2);
        assertThat(eventState(eventId)).isEqualTo("completed");
    }

    @Test
    @DisplayName("in-flight-claim-answers-retry-later")
    void inFlightClaimAnswersRetryLater() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        hook.afterClaim(eventId, () -> {
            holding.countDown();
            await(finish); // a live, slow worker holding the claim
        });
        CompletableFuture<Http.Response> first = CompletableFuture.supplyAsync(() -> deliver(body));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();

        Http.Response second = deliver(body);

        assertThat(second.status()).isEqualTo(503);
        assertThat(second.header("Retry-After")).isNotNull();
        assertThat(Long.parseLong(second.header("Retry-After"))).isPositive();
        assertThat(second.problemSlug()).isEqualTo("stripe-event-in-flight");
        assertThat(second.body()).doesNotContain("duplicate");
        finish.countDown();
        assertThat(first.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
        assertThat(deliver(body).json().path("duplicate").asBoolean()).isTrue();
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
    }

    @Test
    @DisplayName("in-flight refusal also holds for a crashed worker until the expiry")
    void crashedClaimRefusedInsideTheExpiry() {
        hook.afterClaim(eventId, () -> {
            throw new SimulatedCrash("after the claim");
        });
        deliver(body);
        hook.clear(eventId);

        Http.Response inside = deliver(body);

        assertThat(inside.status()).isEqualTo(503);
        assertThat(inside.header("Retry-After")).isNotNull();
        assertThat(grantCount(subscriptionId)).isEqualTo(1);
    }

    @Test
    @DisplayName("database-unavailable-inside-the-apply-answers-503-and-releases-the-claim")
    void databaseUnavailableInsideTheApplyAnswers503() {
        // a pool wait past its timeout (a loaded machine) surfaces like this from the transaction manager
        hook.beforeWrites(eventId, attempt -> {
            throw new org.springframework.transaction.CannotCreateTransactionException(
                    "Could not open JDBC Connection for transaction");
        });

        Http.Response failed = deliver(body);

        assertThat(failed.status()).isEqualTo(503);
        assertThat(failed.problemSlug()).isEqualTo("database-unavailable");
        assertThat(failed.header("Retry-After")).isNotNull();
        assertThat(grantCount(subscriptionId)).isEqualTo(1); // nothing applied
        assertThat(eventState(eventId)).isNull(); // the claim was released

        hook.clear(eventId);
        assertThat(deliver(body).status()).isEqualTo(200); // the redelivery is let in at once
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
    }

    @Test
    @DisplayName("transaction-rolls-back-whole")
    void transactionRollsBackWhole() {
        hook.afterWrites(eventId, attempt -> {
            throw new IllegalStateException("failure after the business writes");
        });

        Http.Response failed = deliver(body);

        assertThat(failed.status()).isEqualTo(500);
        assertThat(failed.problemSlug()).isEqualTo("stripe-event-failed");
        assertThat(grantCount(subscriptionId)).isEqualTo(1); // no grant row
        assertThat(credits(userId)).isEqualTo(500); // no credits
        assertThat(outboxKeys(eventId)).isEmpty(); // no outbox row
        assertThat(eventState(eventId)).isNull(); // no completion; the claim was released
        assertThat(mirrorPeriodStart(subscriptionId)).isNull(); // no mirror move

        hook.clear(eventId);
        assertThat(deliver(body).status()).isEqualTo(200); // released: the redelivery is let in at once
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
    }

    @Test
    @DisplayName("crash-before-commit-applies-nothing")
    void crashBeforeCommitAppliesNothing() {
        hook.afterWrites(eventId, attempt -> {
            throw new SimulatedCrash("before the commit");
        });
        assertThat(deliver(body).status()).isGreaterThanOrEqualTo(500);

        assertThat(grantCount(subscriptionId)).isEqualTo(1);
        assertThat(credits(userId)).isEqualTo(500);
        assertThat(outboxKeys(eventId)).isEmpty();
        assertThat(eventState(eventId)).isEqualTo("processing");

        hook.clear(eventId);
        assertThat(deliver(body).status()).isEqualTo(503); // inside the expiry: come back later
        ageClaim(eventId, "3 minutes");
        assertThat(deliver(body).status()).isEqualTo(200);
        assertThat(deliver(body).json().path("duplicate").asBoolean()).isTrue();

        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(outboxKeys(eventId)).containsExactlyInAnyOrder(eventId + ":renewal_notice",
                eventId + ":conversion");
    }

    @Test
    @DisplayName("committed-retry-sends-once")
    void committedRetrySendsOnce() {
        hook.afterCommit(eventId, () -> {
            throw new SimulatedCrash("after the commit, before the answer");
        });
        assertThat(deliver(body).status()).isGreaterThanOrEqualTo(500); // Stripe saw no 2xx and will retry
        hook.clear(eventId);
        ageClaim(eventId, "3 minutes");

        Http.Response retry = deliver(body);

        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.json().path("duplicate").asBoolean()).isTrue();
        assertThat(outboxKeys(eventId)).containsExactlyInAnyOrder(eventId + ":renewal_notice",
                eventId + ":conversion");
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
    }

    @Test
    @DisplayName("a slow worker that lost its claim to a takeover can neither complete nor grant")
    void slowWorkerIsFencedByTheClaimToken() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicBoolean firstWorker = new AtomicBoolean(true);
        hook.afterClaim(eventId, () -> {
            if (firstWorker.getAndSet(false)) {
                holding.countDown();
                await(finish); // slow, not dead: it will wake up after losing its claim
            }
        });
        double takeoversBefore = meters.counter("stripe.claim.takeovers").count();
        CompletableFuture<Http.Response> slow = CompletableFuture.supplyAsync(() -> deliver(body));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        ageClaim(eventId, "3 minutes");

        Http.Response takeover = deliver(body);
        finish.countDown();
        Http.Response late = slow.get(20, TimeUnit.SECONDS);

        assertThat(takeover.status()).isEqualTo(200);
        assertThat(meters.counter("stripe.claim.takeovers").count() - takeoversBefore).isEqualTo(1.0);
        assertThat(late.status()).isEqualTo(500); // its completion found another worker's token
        assertThat(eventState(eventId)).isEqualTo("completed"); // and it did not release the new owner's row
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(outboxKeys(eventId)).hasSize(2);
    }

    private static void await(CountDownLatch latch) {
        try {
            Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).until(() -> latch.getCount() == 0);
        } catch (RuntimeException e) {
            throw new IllegalStateException(e);
        }
    }
}
