package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/** A signed, parseable webhook whose apply fails (a COMPLETED payload without amount) is never lost. */
class ReceiptSurvivesFailedApplyIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    InboxReplayer replayer;

    @Test
    @DisplayName("a COMPLETED payload without amount: 200, the receipt stays open, and the replay applies the PSP's current truth")
    void completedWithoutAmountKeepsItsReceiptForTheReplay() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("13.00", "EUR");
        String paymentId = "pay-na-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "13.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);

        String body = "{\"id\":\"" + paymentId + "\",\"paymentType\":\"DEPOSIT\",\"state\":\"COMPLETED\",\"currency\":\"EUR\"}";
        Response answer = shop.webhook(body);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().path("status").asString()).isEqualTo("unknown_payment");
        var receipt = jdbc.sql("SELECT processed_at IS NULL AS open FROM psp_webhook_event WHERE payment_id = :p AND state = 'COMPLETED'")
                .param("p", paymentId).query().singleRow();
        assertThat(receipt.get("open")).as("kept, open").isEqualTo(true);
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("PROCESSING");

        // only our receipt is due: the others of the shared database are closed first
        jdbc.sql("UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'superseded' WHERE processed_at IS NULL AND payment_id <> :p")
                .param("p", paymentId).update();
        jdbc.sql("UPDATE psp_webhook_event SET received_at = now() - interval '1 hour' WHERE payment_id = :p")
                .param("p", paymentId).update();
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED", "13.00", "EUR")))));
        assertThat(replayer.replay()).isEqualTo(1);
        Response view = shop.order(order.orderRef());
        assertThat(view.json().path("status").asString()).isEqualTo("PAID");
        assertThat(view.json().path("paidAmount").asString()).isEqualTo("13.00");
        assertThat(jdbc.sql("SELECT count(*) FROM psp_webhook_event WHERE payment_id = :p AND processed_at IS NULL")
                .param("p", paymentId).query(Integer.class).single()).isZero();
    }
}
