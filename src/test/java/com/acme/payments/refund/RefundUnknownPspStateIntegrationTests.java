package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.Polls;
import com.acme.payments.support.Checkouts;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * A DONE refund whose PSP state was never learnt (psp_state NULL, as every refund made
 * before V313 that V325 could not backfill) is asked about for payments.refunds.abandoned-watch after its
 * last change, then no more: a PSP that has purged it would otherwise be asked for ever.
 */
class RefundUnknownPspStateIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    @Autowired
    RefundProperties properties;

    @Test
    @DisplayName("a DONE refund without a PSP state is polled within the watch and left after it")
    void aRefundWithoutAPspStateIsNotPolledForEver() {
        String young = doneRefundWithoutPspState("ups-young", "2 hours");
        String old = doneRefundWithoutPspState("ups-old", properties.abandonedWatch().toSeconds() + 3600 + " seconds");
        // the PSP has purged both: a look-up finds nothing
        psp.stubFor(getCall(young).willReturn(aResponse().withStatus(404)));
        psp.stubFor(getCall(old).willReturn(aResponse().withStatus(404)));

        polls.run("refund-straggler-poll");

        assertThat(psp.findAll(getRequestedFor(urlEqualTo("/api/v1/payments/" + young)))).hasSize(1);
        assertThat(psp.findAll(getRequestedFor(urlEqualTo("/api/v1/payments/" + old)))).as("past the watch").isEmpty();
        assertThat(polled(old)).as("not even claimed").isFalse();
        assertThat(jdbc.sql("SELECT state FROM psp_refund_attempt WHERE psp_payment_id IN (:a, :b)")
                .param("a", young).param("b", old).query(String.class).list()).containsOnly("DONE");
    }

    /** A refund the PSP accepted, as code before V313 left it: DONE, no psp_state, last changed {@code age} ago. */
    private String doneRefundWithoutPspState(String key, String age) {
        String orderRef = paidOrder("30.00");
        String rf = "rf-" + key + "-" + orderRef;
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(okJson(envelope(payment(rf, null, "REFUND", "PENDING", "10.00", "EUR")))));
        assertThat(http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", key)
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"10.00\",\"currency\":\"EUR\"}").status())
                .isEqualTo(201);
        jdbc.sql("""
                UPDATE psp_refund_attempt SET psp_state = NULL, updated_at = now() - CAST(:age AS interval)
                 WHERE psp_payment_id = :p AND state = 'DONE'
                """).param("age", age).param("p", rf).update();
        psp.resetAll();
        return rf;
    }

    private boolean polled(String pspPaymentId) {
        return jdbc.sql("SELECT last_polled_at IS NOT NULL FROM psp_refund_attempt WHERE psp_payment_id = :p")
                .param("p", pspPaymentId).query(Boolean.class).single();
    }

    private String paidOrder(String amount) {
        return Checkouts.paidOrder(new Shop(http()), psp, jdbc, amount);
    }
}
