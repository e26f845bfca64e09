package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.payment;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PspFixtures;
import com.acme.payments.support.Shop;

class PspWebhookIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    Shop shop() {
        return new Shop(http());
    }

    /** An order checked out at the PSP: payment {@code paymentId} exists, attempt READY, order PROCESSING. */
    String checkedOut(String paymentId, String amount) {
        var order = shop().createOrder(amount, "EUR");
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", amount, "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);
        return order.orderRef();
    }

    String status(String orderRef) {
        return shop().order(orderRef).json().path("status").asString();
    }

    @Test
    @DisplayName("a signed COMPLETED webhook pays the order with the PSP's amount and writes one order_paid row")
    void completedWebhookPaysTheOrder() {
        String paymentId = "pay-wh-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        Response answer = shop().webhook(payment(paymentId, null, "DEPOSIT", "COMPLETED", "9.99", "EUR"));
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().path("status").asString()).isEqualTo("applied");
        var order = shop().order(orderRef).json();
        assertThat(order.path("status").asString()).isEqualTo("PAID");
        assertThat(order.path("paidAmount").asString()).isEqualTo("9.99");
        assertThat(order.path("pspPaymentId").asString()).isEqualTo(paymentId);
        assertThat(orderPaidRows(orderRef)).isEqualTo(1);
        assertThat(receipt(paymentId, "COMPLETED")).isEqualTo("applied");
    }

    @Test
    @DisplayName("a duplicate webhook is a no-op")
    void duplicateWebhookIsANoOp() {
        String paymentId = "pay-dup-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        String body = payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR");
        assertThat(shop().webhook(body).json().path("status").asString()).isEqualTo("applied");
        Response again = shop().webhook(body);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("status").asString()).isEqualTo("duplicate");
        assertThat(orderPaidRows(orderRef)).isEqualTo(1);
    }

    @Test
    @DisplayName("concurrent duplicate deliveries apply once")
    void concurrentDuplicatesApplyOnce() throws Exception {
        String paymentId = "pay-cdup-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        String body = payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> answers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return shop().webhook(body);
            }));
        }
        start.countDown();
        List<String> outcomes = new ArrayList<>();
        for (Future<Response> a : answers) {
            outcomes.add(a.get().json().path("status").asString());
        }
        pool.shutdown();
        assertThat(outcomes).containsOnlyOnce("applied").containsOnly("applied", "duplicate");
        assertThat(orderPaidRows(orderRef)).isEqualTo(1);
    }

    @Test
    @DisplayName("a late AUTHORIZED never downgrades PAID")
    void lateAuthorizedNeverDowngradesPaid() {
        String paymentId = "pay-late-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        shop().webhook(payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR"));
        Response late = shop().webhook(payment(paymentId, null, "DEPOSIT", "AUTHORIZED", "10.00", "EUR"));
        assertThat(late.status()).isEqualTo(200);
        assertThat(late.json().path("status").asString()).isEqualTo("duplicate");
        assertThat(status(orderRef)).isEqualTo("PAID");
        assertThat(receipt(paymentId, "AUTHORIZED")).isEqualTo("duplicate");
    }

    @Test
    @DisplayName("AUTHORIZED then COMPLETED: funds held first, paid after capture")
    void authorizedThenCompleted() {
        String paymentId = "pay-auth-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        assertThat(shop().webhook(payment(paymentId, null, "DEPOSIT", "AUTHORIZED", "10.00", "EUR"))
                .json().path("status").asString()).isEqualTo("applied");
        assertThat(status(orderRef)).isEqualTo("AUTHORIZED");
        assertThat(orderPaidRows(orderRef)).as("an authorisation is never fulfilled").isZero();
        shop().webhook(payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR"));
        assertThat(status(orderRef)).isEqualTo("PAID");
    }

    @Test
    @DisplayName("a DECLINED webhook fails the order and frees it for a new checkout")
    void declinedWebhookFreesTheOrder() {
        String paymentId = "pay-decl-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        shop().webhook(payment(paymentId, null, "DEPOSIT", "DECLINED", "10.00", "EUR"));
        assertThat(status(orderRef)).isEqualTo("PAYMENT_FAILED");
        psp.stubFor(createCall().willReturn(created(paymentId + "-2", "CHECKOUT", "10.00", "EUR")));
        assertThat(shop().checkout(orderRef).status()).isEqualTo(200);
        assertThat(status(orderRef)).isEqualTo("PROCESSING");
        // the old payment's refusal, redelivered, must not fail the new attempt
        shop().webhook(payment(paymentId, null, "DEPOSIT", "CANCELLED", "10.00", "EUR"));
        assertThat(status(orderRef)).isEqualTo("PROCESSING");
    }

    @Test
    @DisplayName("a webhook matching a stored reference before the payment id is linked is applied at once")
    void earlyWebhookByReferenceIsApplied() {
        var order = shop().createOrder("8.00", "EUR");
        psp.stubFor(createCall().willReturn(PspFixtures.status(503, "{}")));
        psp.stubFor(PspFixtures.findCall().willReturn(PspFixtures.nothingFound()));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(409);
        String reference = jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref""")
                .param("ref", order.orderRef()).query(String.class).single();
        Response early = shop().webhook(payment("pay-early-" + order.orderRef(), reference, "DEPOSIT", "COMPLETED",
                "8.00", "EUR"));
        assertThat(early.json().path("status").asString()).isEqualTo("applied");
        assertThat(status(order.orderRef())).isEqualTo("PAID");
    }

    @Test
    @DisplayName("a webhook arriving before the order link is not swallowed and the redelivery applies it")
    void webhookBeforeTheOrderLinkIsKeptAndTheRedeliveryApplies() {
        String paymentId = "pay-unlinked-" + Shop.newOrderRef();
        String body = payment(paymentId, null, "DEPOSIT", "COMPLETED", "6.00", "EUR");
        Response early = shop().webhook(body);
        assertThat(early.status()).isEqualTo(200);
        assertThat(early.json().path("status").asString()).isEqualTo("unknown_payment");
        assertThat(receiptOpen(paymentId, "COMPLETED")).isTrue();

        String orderRef = checkedOut(paymentId, "6.00"); // the create answer now links the payment id
        Response redelivery = shop().webhook(body);
        assertThat(redelivery.json().path("status").asString()).isEqualTo("applied");
        assertThat(status(orderRef)).isEqualTo("PAID");
        assertThat(receipt(paymentId, "COMPLETED")).isEqualTo("applied");
    }

    @Test
    @DisplayName("a bad or missing signature is 401 and the order is untouched")
    void badSignatureIs401AndTheOrderIsUntouched() {
        String paymentId = "pay-sig-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        String body = payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR");
        String tampered = body.replace("10.00", "0.01");
        Response forged = http().header("Signature", PspFixtures.hmacHex(body)).post("/webhooks/psp", tampered);
        assertThat(forged.status()).isEqualTo(401);
        assertThat(forged.problemSlug()).isEqualTo("invalid-signature");
        assertThat(http().post("/webhooks/psp", body).status()).isEqualTo(401);
        assertThat(http().header("Signature", "").post("/webhooks/psp", body).status()).isEqualTo(401);
        assertThat(http().header("Signature", "abc").post("/webhooks/psp", body).status()).isEqualTo(401);
        assertThat(status(orderRef)).isEqualTo("PROCESSING");
        assertThat(jdbc.sql("SELECT count(*) FROM psp_webhook_event WHERE payment_id = :id").param("id", paymentId)
                .query(Integer.class).single()).isZero();
    }

    @Test
    @DisplayName("PSP_SIGNING_KEY mid-roll (new,old): a webhook the PSP still signs with the old key is applied")
    void aWebhookSignedWithThePreviousKeyIsAppliedDuringTheRoll() throws Exception {
        String paymentId = "pay-roll-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        String body = payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR");
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec("test-previous-signing-key".getBytes(StandardCharsets.UTF_8),
                "HmacSHA256"));
        String byOldKey = java.util.HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        Response answer = http().header("Signature", byOldKey).post("/webhooks/psp", body);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().path("status").asString()).isEqualTo("applied");
        assertThat(status(orderRef)).isEqualTo("PAID");
    }

    @Test
    @DisplayName("base64 signatures are accepted as well as hex")
    void base64SignatureIsAccepted() {
        String paymentId = "pay-b64-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        String body = payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR");
        Response answer = http().header("Signature", PspFixtures.hmacBase64(body)).post("/webhooks/psp", body);
        assertThat(answer.json().path("status").asString()).isEqualTo("applied");
        assertThat(status(orderRef)).isEqualTo("PAID");
    }

    @Test
    @DisplayName("an unparseable body with a valid signature is 400 and changes nothing")
    void unparseableBodyIs400() {
        for (String body : List.of("{not json", "[]", "{\"id\":\"x\"}", "{\"id\":{\"a\":1},\"state\":\"COMPLETED\"}")) {
            Response answer = shop().webhook(body);
            assertThat(answer.status()).as(body).isEqualTo(400);
            assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        }
    }

    @Test
    @DisplayName("a non-final state is recorded and ignored")
    void nonFinalStateIsIgnored() {
        String paymentId = "pay-pend-" + Shop.newOrderRef();
        String orderRef = checkedOut(paymentId, "10.00");
        Response answer = shop().webhook(payment(paymentId, null, "DEPOSIT", "PENDING", "10.00", "EUR"));
        assertThat(answer.json().path("status").asString()).isEqualTo("ignored");
        assertThat(status(orderRef)).isEqualTo("PROCESSING");
        assertThat(receipt(paymentId, "PENDING")).isEqualTo("ignored");
    }

    @Test
    @DisplayName("a body over 1 MiB is 413, webhooks included")
    void oversizedBodyIs413() {
        byte[] huge = new byte[(1 << 20) + 10];
        java.util.Arrays.fill(huge, (byte) ' ');
        Response answer = http().header("Signature", "00").post("/webhooks/psp", huge);
        assertThat(answer.status()).isEqualTo(413);
    }

    int orderPaidRows(String orderRef) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'order_paid' AND aggregate_id = :ref")
                .param("ref", orderRef).query(Integer.class).single();
    }

    String receipt(String paymentId, String state) {
        return jdbc.sql("SELECT processed_reason FROM psp_webhook_event WHERE payment_id = :id AND state = :state")
                .param("id", paymentId).param("state", state).query(String.class).single();
    }

    boolean receiptOpen(String paymentId, String state) {
        return jdbc.sql("""
                SELECT processed_at IS NULL FROM psp_webhook_event WHERE payment_id = :id AND state = :state""")
                .param("id", paymentId).param("state", state).query(Boolean.class).single();
    }
}
