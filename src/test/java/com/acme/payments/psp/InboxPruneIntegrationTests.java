package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.payment;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.retention.Retentions;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/** Closed receipts go after {@code payments.retention.inbox-closed} (90 d); open ones never do. */
class InboxPruneIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;
    @Autowired
    Retentions retentions;

    @Test
    @DisplayName("receipts closed more than 90 days ago are deleted; recently closed and open ones stay, however old")
    void closedReceiptsPastRetentionGoAndOpenOrRecentOnesStay() {
        String prefix = "pay-prune-" + Shop.newOrderRef() + "-";
        receipt(prefix + "old", "91 days", true);
        receipt(prefix + "recent", "89 days", true);
        receipt(prefix + "open", "400 days", false);

        retentions.run(InboxPruner.JOB);

        List<String> left = jdbc.sql("SELECT payment_id FROM psp_webhook_event WHERE payment_id LIKE :p ORDER BY id")
                .param("p", prefix + "%").query(String.class).list();
        assertThat(left).containsExactly(prefix + "recent", prefix + "open");
    }

    @Test
    @DisplayName("a delivery of a pruned receipt is answered from the order: paid once, no second order_paid")
    void aPrunedReceiptsRedeliveryMovesNoMoney() {
        Shop shop = new Shop(http());
        String paymentId = "pay-prune-redo-" + Shop.newOrderRef();
        var order = shop.createOrder("10.00", "EUR");
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "10.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        String body = payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR");
        assertThat(shop.webhook(body).json().path("status").asString()).isEqualTo("applied");
        jdbc.sql("UPDATE psp_webhook_event SET processed_at = now() - interval '91 days' WHERE payment_id = :id")
                .param("id", paymentId).update();

        retentions.run(InboxPruner.JOB);
        assertThat(jdbc.sql("SELECT count(*) FROM psp_webhook_event WHERE payment_id = :id").param("id", paymentId)
                .query(Integer.class).single()).isZero();

        var again = shop.webhook(body);
        assertThat(again.status()).isEqualTo(200);
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("PAID");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'order_paid' AND aggregate_id = :ref")
                .param("ref", order.orderRef()).query(Integer.class).single()).isEqualTo(1);
    }

    private void receipt(String paymentId, String age, boolean closed) {
        jdbc.sql("""
                INSERT INTO psp_webhook_event (payment_id, state, payload, first_received_at, received_at,
                                               processed_at, processed_reason)
                VALUES (:id, 'COMPLETED', '{}', now() - CAST(:age AS interval) - interval '1 hour',
                        now() - CAST(:age AS interval) - interval '1 hour',
                        CASE WHEN :closed THEN now() - CAST(:age AS interval) END,
                        CASE WHEN :closed THEN 'applied' END)
                """).param("id", paymentId).param("age", age).param("closed", closed).update();
    }
}
