package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.Polls;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * Found by the chaos run: the straggler poll claimed the orders with the oldest {@code updated_at}
 * first. Orders that stay non-final for good (a hosted page never completed, an authorization never
 * captured) keep their old {@code updated_at}, so once there were more of them than one grace period's
 * polls, they were claimed again and again and a newer order whose webhook was lost was never polled.
 * The claim now takes the least recently polled orders first (never-polled first).
 */
class StragglerPollIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    private final String tag = "stale-" + UUID.randomUUID().toString().substring(0, 8) + "-";

    @AfterEach
    void retireStaleOrders() {
        jdbc.sql("UPDATE orders SET status = 'PAYMENT_FAILED' WHERE order_ref LIKE :tag")
                .param("tag", tag + "%").update();
    }

    @Test
    @DisplayName("a batch of long-stuck stragglers does not starve a newer order whose webhook was lost")
    void longStuckStragglersDoNotStarveANewerOne() {
        // a full batch (payments.stragglers.batch-size, 100) of orders non-final for an hour, polled before
        jdbc.sql("""
                INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash,
                                    updated_at, last_polled_at)
                SELECT :tag || n, 'PROCESSING', 10, 'EUR', 'c', decode(md5(:tag || n), 'hex'),
                       now() - interval '1 hour', now() - interval '1 hour'
                  FROM generate_series(1, 100) n""").param("tag", tag).update();

        Shop shop = new Shop(http());
        var order = shop.createOrder("42.00", "EUR");
        String paymentId = "pay-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "42.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        // the customer paid; the webhook never came; the order is past the grace period (15m in tests)
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED",
                "42.00", "EUR")))));
        jdbc.sql("UPDATE orders SET updated_at = now() - interval '20 minutes' WHERE order_ref = :ref")
                .param("ref", order.orderRef()).update();

        polls.run("straggler-poll");

        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("PAID");
    }
}
