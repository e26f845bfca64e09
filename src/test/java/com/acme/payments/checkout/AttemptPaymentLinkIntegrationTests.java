package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.payment;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.LogCapture;
import com.acme.payments.support.Shop;

/**
 * A closed attempt remembers the payment the PSP reports for it (so the id finds it next time); when it
 * already has another, the PSP reports two payments under one reference: the attempt keeps its first and
 * the log says so, instead of the write's zero rows passing unnoticed.
 */
class AttemptPaymentLinkIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    String linkedPayment(String reference) {
        return jdbc.sql("SELECT psp_payment_id FROM psp_attempt WHERE reference_id = :r").param("r", reference)
                .query(String.class).single();
    }

    @Test
    @DisplayName("a second payment reported under a declined attempt's reference leaves the attempt its first and is logged; a repeat of the first is not")
    void secondPaymentUnderOneReferenceIsNoticed() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("14.00", "EUR");
        String first = "pay-l1-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(first, "DECLINED", "14.00", "EUR")));
        Response declined = shop.checkout(order.orderRef());
        assertThat(declined.status()).as(declined.body()).isEqualTo(422);
        String reference = jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref""")
                .param("ref", order.orderRef()).query(String.class).single();
        assertThat(linkedPayment(reference)).isEqualTo(first);
        String second = "pay-l2-" + order.orderRef();

        try (LogCapture logs = new LogCapture("com.acme.payments.checkout")) {
            Response repeat = shop.webhook(payment(first, reference, "DEPOSIT", "DECLINED", "14.00", "EUR"));
            assertThat(repeat.status()).as(repeat.body()).isEqualTo(200);
            assertThat(logs.any("second payment for one attempt")).as("a repeat of its own payment").isFalse();

            Response other = shop.webhook(payment(second, reference, "DEPOSIT", "DECLINED", "14.00", "EUR"));
            assertThat(other.status()).as(other.body()).isEqualTo(200);
            assertThat(logs.first("second payment for one attempt").message())
                    .contains("referenceId=" + reference, "payment=" + second, "attempt keeps payment=" + first);
        }
        assertThat(linkedPayment(reference)).as("the attempt keeps its first payment").isEqualTo(first);
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isNotEqualTo("PAID");
    }

    @Test
    @DisplayName("Gateway: a second payment COMPLETED under a declined attempt's reference, after the retry paid, is warned about and a duplicate charge; the attempt keeps its first")
    void secondCompletedPaymentUnderOneReferenceIsADuplicateCharge() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("16.00", "EUR");
        String first = "pay-l3-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(first, "DECLINED", "16.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(422);
        String reference = jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref""")
                .param("ref", order.orderRef()).query(String.class).single();
        String retry = "pay-l4-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(retry, "COMPLETED", "16.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        String second = "pay-l5-" + order.orderRef();

        try (LogCapture logs = new LogCapture("com.acme.payments.checkout")) {
            Response other = shop.webhook(payment(second, reference, "DEPOSIT", "COMPLETED", "16.00", "EUR"));
            assertThat(other.status()).as(other.body()).isEqualTo(200);
            assertThat(other.json().path("status").asString()).isEqualTo("duplicate_charge");
            assertThat(logs.first("second payment for one attempt").message())
                    .contains("payment=" + second, "attempt keeps payment=" + first);
        }
        assertThat(linkedPayment(reference)).as("the attempt keeps its first payment").isEqualTo(first);
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'duplicate_charge' AND idempotency_key LIKE :k")
                .param("k", second + "%").query(Long.class).single()).isEqualTo(1);
        var view = shop.order(order.orderRef()).json();
        assertThat(view.path("status").asString()).isEqualTo("PAID");
        assertThat(view.path("pspPaymentId").asString()).isEqualTo(retry);
    }
}
