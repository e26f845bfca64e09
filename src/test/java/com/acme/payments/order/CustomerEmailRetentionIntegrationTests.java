package com.acme.payments.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.retention.Retentions;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/** A customer's e-mail is erased 540 days after the order's last change; the money records stay. */
class CustomerEmailRetentionIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;
    @Autowired
    Retentions retentions;

    @Test
    @DisplayName("the e-mail of an order unchanged for more than 540 days is erased, and nothing else of it moves")
    void emailOfAnOldOrderIsErasedAndItsMoneyRecordsStay() {
        Shop shop = new Shop(http());
        String old = shop.createOrder("25.00", "EUR").orderRef();
        String recent = shop.createOrder("30.00", "EUR").orderRef();
        // the old one was paid, partly refunded and last changed 541 days ago; the recent one 539 days ago
        jdbc.sql("""
                UPDATE orders SET status = 'PAID', paid_amount = 25.00, paid_currency = 'EUR', refunded_amount = 5.00,
                                  psp_payment_id = 'pay-' || order_ref, updated_at = now() - interval '541 days'
                 WHERE order_ref = :ref
                """).param("ref", old).update();
        jdbc.sql("UPDATE orders SET updated_at = now() - interval '539 days' WHERE order_ref = :ref")
                .param("ref", recent).update();
        Map<String, Object> before = row(old);

        retentions.run(CustomerEmailEraser.JOB);

        Map<String, Object> after = row(old);
        assertThat(after.get("customer_email")).isNull();
        before.remove("customer_email");
        after.remove("customer_email");
        assertThat(after).as("only the e-mail goes; amounts, status, refs and updated_at stay").isEqualTo(before);
        assertThat(row(recent).get("customer_email")).isEqualTo("a@b.test");
        assertThat(shop.order(old).json().path("paidAmount").asString()).isEqualTo("25.00");
    }

    private Map<String, Object> row(String orderRef) {
        return jdbc.sql("""
                SELECT order_ref, status, amount, currency, paid_amount, paid_currency, refunded_amount,
                       psp_payment_id, customer_ref, customer_email, created_at, updated_at
                  FROM orders WHERE order_ref = :ref
                """).param("ref", orderRef).query().singleRow();
    }
}
