package com.acme.payments.support;

import org.springframework.jdbc.core.simple.JdbcClient;

/** Seeds rows for the sweep tests directly, as a crashed owner would have left them. */
public final class SweepFixtures {

    private static final String ORDER = """
            INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash)
            VALUES (:ref, 'AWAITING_PAYMENT', 5.00, 'EUR', 'c', sha256(convert_to(:ref, 'UTF8'))) RETURNING id""";
    private static final String UNKNOWN_ATTEMPT = """
            INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, updated_at)
            VALUES (:o, :ref, 'UNKNOWN', 5.00, 'EUR', 'https://shop.test/r', now() - interval '1 hour')""";

    private SweepFixtures() {
    }

    /**
     * An order {@code o_<reference>} of 5.00 EUR with one UNKNOWN checkout attempt under {@code reference},
     * last touched an hour ago (past any lease the tests use). Returns the order id.
     */
    public static long unknownAttempt(JdbcClient jdbc, String reference) {
        long orderId = jdbc.sql(ORDER).param("ref", "o_" + reference).query(Long.class).single();
        jdbc.sql(UNKNOWN_ATTEMPT).param("o", orderId).param("ref", reference).update();
        return orderId;
    }
}
