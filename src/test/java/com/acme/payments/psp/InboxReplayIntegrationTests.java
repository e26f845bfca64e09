package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

class InboxReplayIntegrationTests extends IntegrationTest {

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

    String checkedOut(String paymentId) {
        Shop shop = new Shop(http());
        var order = shop.createOrder("10.00", "EUR");
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "10.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        return order.orderRef();
    }

    void insertOpenReceipt(String paymentId, String state, String referenceId, int minutesAgo) {
        jdbc.sql("""
                INSERT INTO psp_webhook_event (payment_id, state, payment_type, reference_id, payload, first_received_at, received_at)
                VALUES (:p, :s, 'DEPOSIT', :r, '{}'::jsonb, now() - :m * interval '1 minute', now() - :m * interval '1 minute')""")
                .param("p", paymentId).param("s", state).param("r", referenceId).param("m", minutesAgo).update();
    }

    java.util.Map<String, Object> receipt(String paymentId, String state) {
        return jdbc.sql("""
                SELECT processed_at IS NOT NULL AS processed, processed_reason, lease_version
                  FROM psp_webhook_event WHERE payment_id = :p AND state = :s""")
                .param("p", paymentId).param("s", state).query().singleRow();
    }

    @Test
    @DisplayName("the replay job applies the CURRENT payment state: stale AUTHORIZED receipt, payment now COMPLETED → PAID with the current amount, receipt superseded, a second run claims 0")
    void replayAppliesTheCurrentState() {
        String paymentId = "pay8-" + System.nanoTime();
        String orderRef = checkedOut(paymentId);
        insertOpenReceipt(paymentId, "AUTHORIZED", null, 10);
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED",
                "10.01", "EUR")))));

        assertThat(replayer.replay()).isEqualTo(1);

        var order = new Shop(http()).order(orderRef).json();
        assertThat(order.path("status").asString()).isEqualTo("PAID");
        assertThat(order.path("paidAmount").asString()).isEqualTo("10.01");
        var stale = receipt(paymentId, "AUTHORIZED");
        assertThat(stale.get("processed")).isEqualTo(true);
        assertThat(stale.get("processed_reason")).isEqualTo("superseded");
        assertThat(receipt(paymentId, "COMPLETED").get("processed_reason")).isEqualTo("applied");
        assertThat(replayer.replay()).isZero();
    }

    @Test
    @DisplayName("a webhook that arrived before its order existed, with no redelivery, is applied by the replay job")
    void webhookBeforeItsOrderIsAppliedByTheReplayJob() {
        String paymentId = "pay-before-" + System.nanoTime();
        String body = payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR");
        assertThat(new Shop(http()).webhook(body).json().path("status").asString()).isEqualTo("unknown_payment");
        String orderRef = checkedOut(paymentId); // the order and its payment link come later
        jdbc.sql("UPDATE psp_webhook_event SET received_at = now() - interval '10 minutes' WHERE payment_id = :p")
                .param("p", paymentId).update();
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(body))));

        assertThat(replayer.replay()).isEqualTo(1);

        assertThat(new Shop(http()).order(orderRef).json().path("status").asString()).isEqualTo("PAID");
        assertThat(receipt(paymentId, "COMPLETED").get("processed_reason")).isEqualTo("applied");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'order_paid' AND aggregate_id = :r")
                .param("r", orderRef).query(Integer.class).single()).isEqualTo(1);
    }

    @Test
    @DisplayName("a receipt that still matches no order stays open for a later run")
    void unmatchedReceiptStaysOpen() {
        String paymentId = "pay-orphan-" + System.nanoTime();
        insertOpenReceipt(paymentId, "COMPLETED", null, 10);
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED",
                "10.00", "EUR")))));

        assertThat(replayer.replay()).isEqualTo(1);

        var open = receipt(paymentId, "COMPLETED");
        assertThat(open.get("processed")).isEqualTo(false);
        assertThat(open.get("lease_version")).isEqualTo(1L);
        assertThat(replayer.replay()).as("leased: hidden until min-age passes again").isZero();
    }

    @Test
    @DisplayName("a PSP outage leaves receipts open and the job running")
    void outageLeavesReceiptsOpen() {
        String paymentId = "pay-outage-" + System.nanoTime();
        insertOpenReceipt(paymentId, "COMPLETED", null, 10);
        psp.stubFor(getCall(paymentId).willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                .withStatus(503)));
        assertThat(replayer.replay()).isEqualTo(1);
        assertThat(receipt(paymentId, "COMPLETED").get("processed")).isEqualTo(false);
    }
}
