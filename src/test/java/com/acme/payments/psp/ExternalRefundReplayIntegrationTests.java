package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Checkouts;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * A refund made in the PSP's back office whose webhook could not be booked when it came (its order not PAID
 * yet) is booked by the replay job from the PSP's current truth, and its receipt closed: never re-fetched
 * for ever.
 */
class ExternalRefundReplayIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    InboxReplayer replayer;

    @BeforeEach
    void closeOtherTestsReceipts() {
        // every test of the run shares one database: receipts other tests left open are not ours to replay
        jdbc.sql("UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'superseded' WHERE processed_at IS NULL")
                .update();
    }

    List<String> openReceipts(String paymentId) {
        return jdbc.sql("SELECT state FROM psp_webhook_event WHERE payment_id = :p AND processed_at IS NULL")
                .param("p", paymentId).query(String.class).list();
    }

    @Test
    @DisplayName("a back-office refund whose webhook came before its order was PAID is booked by the replay job, its receipt closed")
    void replayJobBooksABackOfficeRefund() {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder("40.00", "EUR").orderRef();
        Checkouts.checkOut(shop, psp, jdbc, orderRef, "pay-" + orderRef, "CHECKOUT", "40.00");
        String bo = "bo-" + orderRef;
        String refund = payment(bo, "back-office-" + orderRef, "REFUND", "COMPLETED", "8.00", "EUR");
        refund = refund.substring(0, refund.length() - 1) + ",\"parentPaymentId\":\"pay-" + orderRef + "\"}";
        assertThat(shop.webhook(refund).json().path("status").asString()).isEqualTo("unknown_payment");
        shop.webhook(payment("pay-" + orderRef, null, "DEPOSIT", "COMPLETED", "40.00", "EUR"));
        assertThat(shop.order(orderRef).json().path("status").asString()).isEqualTo("PAID");
        assertThat(openReceipts(bo)).hasSize(1);

        psp.stubFor(getCall(bo).willReturn(okJson(envelope(refund))));
        jdbc.sql("UPDATE psp_webhook_event SET received_at = now() - interval '1 hour' WHERE payment_id = :p")
                .param("p", bo).update();
        assertThat(replayer.replay()).isEqualTo(1);

        assertThat(openReceipts(bo)).as("closed: not re-fetched every few minutes for ever").isEmpty();
        assertThat(replayer.replay()).isZero();
        assertThat(shop.order(orderRef).json().path("refundedAmount").asString()).isEqualTo("8.00");
        var view = http().bearer(Shop.ADMIN_KEY).get("/api/orders/" + orderRef + "/refunds").json();
        assertThat(view.size()).isEqualTo(1);
        assertThat(view.get(0).path("origin").asString()).isEqualTo("external");
        assertThat(view.get(0).path("referenceId").asString()).isEqualTo(bo);
    }
}
