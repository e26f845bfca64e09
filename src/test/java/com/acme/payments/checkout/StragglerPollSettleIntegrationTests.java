package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.sweep.Polls;

/**
 * The straggler poll asks about each claimed order from the claim's batch read, and opens no
 * transaction when the PSP still shows the payment under way as the order has it. A change the PSP shows is
 * still applied; an unchanged answer leaves the rows as they were (not even a new row version).
 */
class StragglerPollSettleIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    /**
     * An order in {@code status} past the grace with a READY attempt (the redirect the PSP gave stored), the PSP
     * showing its payment {@code state}.
     */
    String straggler(String status, String state) {
        String ref = "strag_settle_" + System.nanoTime();
        String paymentId = "pay-" + ref;
        long orderId = jdbc.sql("""
                INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash, psp_payment_id,
                                    updated_at)
                VALUES (:ref, :status, 5.00, 'EUR', 'c', sha256(convert_to(:ref, 'UTF8')), :p, now() - interval '1 hour')
                RETURNING id""").param("ref", ref).param("status", status).param("p", paymentId).query(Long.class).single();
        jdbc.sql("""
                INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_payment_id,
                                         redirect_url)
                VALUES (:o, :ref, 'READY', 5.00, 'EUR', 'https://shop.test/r', :p, 'https://psp.test/hosted/' || :p)""")
                .param("o", orderId).param("ref", "chk_" + ref).param("p", paymentId).update();
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, "chk_" + ref, "DEPOSIT", state,
                "5.00", "EUR")))));
        return ref;
    }

    /**
     * The order's status and last change, the attempt's state and row version (xmin: any UPDATE writes a new
     * one; the order's own changes with the claim's last_polled_at).
     */
    Map<String, Object> rows(String ref) {
        return jdbc.sql("""
                SELECT o.status, o.updated_at, a.state, a.xmin::text AS attempt_version
                  FROM orders o JOIN psp_attempt a ON a.order_id = o.id WHERE o.order_ref = :ref""")
                .param("ref", ref).query().singleRow();
    }

    @Test
    @DisplayName("a straggler the PSP still shows under way is left as it was; one it shows moved is moved")
    void unchangedAnswersWriteNothingChangedOnesApply() {
        String pending = straggler("PROCESSING", "PENDING");
        String authorizedAgain = straggler("AUTHORIZED", "AUTHORIZED");
        String authorized = straggler("PROCESSING", "AUTHORIZED");
        String declined = straggler("AUTHORIZED", "DECLINED");
        Map<String, Object> pendingBefore = rows(pending);
        Map<String, Object> authorizedAgainBefore = rows(authorizedAgain);

        polls.run("straggler-poll");

        assertThat(rows(pending)).as("PROCESSING, the PSP still PENDING: no write").isEqualTo(pendingBefore);
        assertThat(rows(authorizedAgain)).as("AUTHORIZED, the PSP still AUTHORIZED: no write")
                .isEqualTo(authorizedAgainBefore);
        assertThat(rows(authorized).get("status")).as("PROCESSING, the PSP now AUTHORIZED").isEqualTo("AUTHORIZED");
        assertThat(rows(declined)).as("AUTHORIZED, the PSP now DECLINED")
                .containsEntry("status", "PAYMENT_FAILED").containsEntry("state", "FAILED");
    }
}
