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

    @Test
    @DisplayName("erased means erased: the stored Stripe session request loses the e-mail too, and stays readable")
    void erasedEmailLeavesNoCopyInTheStoredPspRequest() {
        Shop shop = new Shop(http());
        String old = shop.createOrder("25.00", "EUR").orderRef();
        String recent = shop.createOrder("30.00", "EUR").orderRef();
        String oldEmail = "erase-" + System.nanoTime() + "@b.test";
        String recentEmail = "keep-" + System.nanoTime() + "@b.test";
        jdbc.sql("UPDATE orders SET customer_email = :e, updated_at = now() - interval '541 days' WHERE order_ref = :ref")
                .param("e", oldEmail).param("ref", old).update();
        jdbc.sql("UPDATE orders SET customer_email = :e, updated_at = now() - interval '539 days' WHERE order_ref = :ref")
                .param("e", recentEmail).param("ref", recent).update();
        storeStripeRequest(old, oldEmail);
        storeStripeRequest(recent, recentEmail);

        retentions.run(CustomerEmailEraser.JOB);

        String erased = storedRequest(old);
        assertThat(erased).doesNotContain("customer_email", oldEmail.substring(0, oldEmail.indexOf('@')));
        assertThat(everyTableMentioning(oldEmail.substring(0, oldEmail.indexOf('@')))).as("no copy in any table").isEmpty();
        var json = tools.jackson.databind.json.JsonMapper.builder().build().readTree(erased);
        assertThat(json.path("claimedAt").asLong()).isEqualTo(1700000000L);
        assertThat(json.path("expiresAt").asLong()).isEqualTo(1700003600L);
        assertThat(json.path("form").asString()).isEqualTo(form(old, null));
        assertThat(storedRequest(recent)).as("a recent order's request keeps it").contains(form(recent,
                recentEmail.replace("@", "%40")));
    }

    /** A READY Stripe attempt of the order, its request stored as the Stripe adapter writes it. */
    private void storeStripeRequest(String orderRef, String email) {
        String request = "{\"claimedAt\":1700000000,\"expiresAt\":1700003600,\"form\":\""
                + form(orderRef, email.replace("@", "%40")) + "\"}";
        jdbc.sql("""
                INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_request)
                SELECT id, 'chk_' || order_ref, 'READY', amount, currency, 'https://shop.test/r', :request
                  FROM orders WHERE order_ref = :ref
                """).param("request", request).param("ref", orderRef).update();
    }

    private static String form(String orderRef, String encodedEmail) {
        return "mode=payment&line_items[0][quantity]=1&client_reference_id=chk_" + orderRef
                + "&metadata[orderRef]=" + orderRef + "&expires_at=1700003600"
                + (encodedEmail == null ? "" : "&customer_email=" + encodedEmail);
    }

    private String storedRequest(String orderRef) {
        return jdbc.sql("""
                SELECT a.psp_request FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref
                """).param("ref", orderRef).query(String.class).single();
    }

    /** The tables of the schema any of whose rows, as text, contains {@code text}. */
    private java.util.List<String> everyTableMentioning(String text) {
        return jdbc.sql("""
                SELECT table_name FROM information_schema.tables
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                """).query(String.class).list().stream()
                .filter(table -> jdbc.sql("SELECT count(*) FROM \"" + table + "\" t WHERE t::text LIKE :p")
                        .param("p", "%" + text + "%").query(Long.class).single() > 0)
                .toList();
    }

    private Map<String, Object> row(String orderRef) {
        return jdbc.sql("""
                SELECT order_ref, status, amount, currency, paid_amount, paid_currency, refunded_amount,
                       psp_payment_id, customer_ref, customer_email, created_at, updated_at
                  FROM orders WHERE order_ref = :ref
                """).param("ref", orderRef).query().singleRow();
    }
}
