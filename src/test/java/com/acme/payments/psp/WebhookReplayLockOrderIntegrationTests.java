package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * Lock order between a PSP webhook's apply and the replay job, on one payment: the webhook's receipt is
 * committed, the replay holds a stale receipt of the same payment and re-fetched the same state the webhook
 * carries. A third connection holds the attempt row, so both paths run until they wait, the webhook first;
 * then it lets go. With the receipt taken first on every path, the replay queues on the webhook's receipt and
 * both finish (the payment booked once). With the webhook closing its receipt last, it took the attempt and
 * order and then waited for the receipt the replay's upsert held, while the replay waited for the attempt:
 * PostgreSQL aborted one of them as a deadlock. Each path runs on its own thread and connection through the
 * real proxied beans.
 */
class WebhookReplayLockOrderIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    DataSource dataSource;

    @Autowired
    InboxStore inbox;

    @Autowired
    PaymentUpdateApplier updates;

    @BeforeEach
    void closeOtherTestsReceipts() {
        jdbc.sql("UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'superseded' WHERE processed_at IS NULL")
                .update();
    }

    int lockWaiters() {
        return jdbc.sql("""
                SELECT count(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'""").query(Integer.class).single();
    }

    void awaitLockWaiters(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lockWaiters() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(lockWaiters()).as("paths waiting for a lock").isEqualTo(count);
    }

    static <T> CompletableFuture<T> onItsOwnThread(String name, Supplier<T> path) {
        return CompletableFuture.supplyAsync(path, runnable -> new Thread(runnable, name).start());
    }

    @Test
    @DisplayName("a webhook's apply and a replay of the same payment state at once: no deadlock, PAID once, one order_paid")
    void webhookAndReplayOfOnePaymentDoNotDeadlock() throws Exception {
        String paymentId = "pay-lockorder-" + System.nanoTime();
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder("12.00", "EUR").orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "12.00", "EUR")));
        assertThat(shop.checkout(orderRef).status()).isEqualTo(200);

        PspPayment completed = new PspPayment(paymentId, null, "DEPOSIT", "COMPLETED", new BigDecimal("12.00"), "EUR",
                null, null, null, null);
        long stale = jdbc.sql("""
                INSERT INTO psp_webhook_event (payment_id, state, payment_type, payload, first_received_at, received_at)
                VALUES (:p, 'AUTHORIZED', 'DEPOSIT', '{}'::jsonb, now() - interval '10 minutes', now())
                RETURNING id""").param("p", paymentId).query(Long.class).single();
        long received = inbox.receiveAlone(completed, null).orElseThrow(); // the webhook's receipt, committed

        try (Connection blocker = dataSource.getConnection()) {
            blocker.setAutoCommit(false);
            try (PreparedStatement hold = blocker.prepareStatement(
                    "SELECT id FROM psp_attempt WHERE psp_payment_id = ? FOR UPDATE")) {
                hold.setString(1, paymentId);
                assertThat(hold.executeQuery().next()).as("the attempt is held").isTrue();
            }
            CompletableFuture<WebhookOutcome> webhook = onItsOwnThread("webhook-path",
                    () -> updates.applyReceived(received, completed));
            awaitLockWaiters(1);
            CompletableFuture<java.util.Optional<WebhookOutcome>> replay = onItsOwnThread("replay-path",
                    () -> updates.replay(stale, 0, completed));
            awaitLockWaiters(2);
            blocker.commit();

            assertThat(webhook.get(30, TimeUnit.SECONDS)).isEqualTo(WebhookOutcome.APPLIED);
            assertThat(replay.get(30, TimeUnit.SECONDS)).contains(WebhookOutcome.DUPLICATE);
        }
        assertThat(shop.order(orderRef).json().path("status").asString()).isEqualTo("PAID");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'order_paid' AND aggregate_id = :r")
                .param("r", orderRef).query(Integer.class).single()).isEqualTo(1);
        assertThat(jdbc.sql("SELECT processed_reason FROM psp_webhook_event WHERE id = :id").param("id", received)
                .query(String.class).single()).isEqualTo("applied");
        assertThat(jdbc.sql("SELECT processed_reason FROM psp_webhook_event WHERE id = :id").param("id", stale)
                .query(String.class).single()).isEqualTo("superseded");
    }
}
