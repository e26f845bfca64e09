package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Checkouts;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * Final is final through the replay job: a stale receipt whose payment the PSP now reports contradicting a
 * final truth changes nothing, closes, and records the discrepancy once however often it is replayed.
 */
class ContradictingReplayIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    InboxReplayer replayer;

    @BeforeEach
    void closeOtherTestsReceipts() {
        jdbc.sql("UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'superseded' WHERE processed_at IS NULL")
                .update();
    }

    void insertOpenReceipt(String paymentId, String state, String type) {
        jdbc.sql("""
                INSERT INTO psp_webhook_event (payment_id, state, payment_type, reference_id, payload, first_received_at, received_at)
                VALUES (:p, :s, :t, NULL, '{}'::jsonb, now() - interval '10 minutes', now() - interval '10 minutes')""")
                .param("p", paymentId).param("s", state).param("t", type).update();
    }

    int discrepancies(String paymentId) {
        return jdbc.sql("SELECT count(*) FROM discrepancy WHERE psp_payment_id = :p AND kind = 'contradicting_report'")
                .param("p", paymentId).query(Integer.class).single();
    }

    String paidOrder(String amount) {
        return Checkouts.paidOrder(new Shop(http()), psp, jdbc, amount);
    }

    @Test
    @DisplayName("replay: a COMPLETED refund the PSP now reports DECLINED stays DONE and booked; one discrepancy")
    void replayedDeclineOfACompletedRefundChangesNothing() {
        String orderRef = paidOrder("30.00");
        String rf = "rf-rp-" + orderRef;
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(okJson(envelope(payment(rf, null, "REFUND", "COMPLETED", "12.00", "EUR")))));
        Response done = http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", "rp-1")
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"12.00\",\"currency\":\"EUR\"}");
        assertThat(done.status()).as(done.body()).isEqualTo(201);
        psp.stubFor(getCall(rf).willReturn(okJson(envelope(payment(rf, null, "REFUND", "DECLINED", "12.00", "EUR")))));
        insertOpenReceipt(rf, "PENDING", "REFUND");

        assertThat(replayer.replay()).isEqualTo(1);
        insertOpenReceipt(rf, "AUTHORIZED", "REFUND");
        assertThat(replayer.replay()).isEqualTo(1);

        assertThat(jdbc.sql("SELECT state || '/' || psp_state FROM psp_refund_attempt WHERE psp_payment_id = :p")
                .param("p", rf).query(String.class).single()).isEqualTo("DONE/COMPLETED");
        assertThat(new Shop(http()).order(orderRef).json().path("refundedAmount").asString()).isEqualTo("12.00");
        assertThat(discrepancies(rf)).isEqualTo(1);
        assertThat(jdbc.sql("SELECT processed_reason FROM psp_webhook_event WHERE payment_id = :p AND state = 'DECLINED'")
                .param("p", rf).query(String.class).single()).isEqualTo("ignored");
    }

    @Test
    @DisplayName("replay: the payment that paid the order, now reported DECLINED, leaves the order PAID; one discrepancy")
    void replayedDeclineOfThePayingPaymentChangesNothing() {
        String orderRef = paidOrder("14.00");
        String paid = "pay-" + orderRef;
        psp.stubFor(getCall(paid).willReturn(okJson(envelope(payment(paid, null, "DEPOSIT", "DECLINED", "14.00", "EUR")))));
        insertOpenReceipt(paid, "AUTHORIZED", "DEPOSIT");

        assertThat(replayer.replay()).isEqualTo(1);

        var order = new Shop(http()).order(orderRef).json();
        assertThat(order.path("status").asString()).isEqualTo("PAID");
        assertThat(order.path("pspPaymentId").asString()).isEqualTo(paid);
        assertThat(discrepancies(paid)).isEqualTo(1);
    }
}
