package com.acme.payments.discrepancy;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.acme.payments.outbox.OutboxRelay;
import com.acme.payments.support.Checkouts;
import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.client.MappingBuilder;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * From outside: a report contradicting a final truth changes nothing, is answered
 * {@code ignored} and is listed by {@code GET /api/admin/discrepancies} once, counted once and sent once;
 * an over-refund and an unrefunded second charge are listed too.
 */
class DiscrepancyIntegrationTests extends IntegrationTest {

    private static final String NOTIFY = "/discrepancy-sinks/notify";

    @Autowired
    JdbcClient jdbc;

    @Autowired
    MeterRegistry registry;

    @Autowired
    OutboxRelay relay;

    @DynamicPropertySource
    static void notifySink(DynamicPropertyRegistry registry) {
        registry.add("payments.outbox.sinks.notify-url", () -> PspStub.baseUrl() + NOTIFY);
    }

    Shop shop() {
        return new Shop(http());
    }

    Http admin() {
        return http().bearer(Shop.ADMIN_KEY);
    }

    String paidOrder(String amount) {
        return Checkouts.paidOrder(new Shop(http()), psp, jdbc, amount);
    }

    String latestReference(String orderRef) {
        return jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref ORDER BY a.id DESC LIMIT 1""").param("ref", orderRef).query(String.class).single();
    }

    static MappingBuilder refundCreate() {
        return createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")));
    }

    static String refundPayment(String id, String reference, String state, String amount) {
        return payment(id, reference, "REFUND", state, amount, "EUR");
    }

    Response refund(String orderRef, String key, String amount) {
        return admin().header("Idempotency-Key", key).post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
    }

    String webhook(String body) {
        Response answer = shop().webhook(body);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer.json().path("status").asString();
    }

    /** The listing's rows about this PSP payment. */
    List<JsonNode> listed(String pspPaymentId) {
        Response list = admin().get("/api/admin/discrepancies");
        assertThat(list.status()).as(list.body()).isEqualTo(200);
        return StreamSupport.stream(list.json().spliterator(), false)
                .filter(n -> n.path("pspPaymentId").asString().equals(pspPaymentId)).toList();
    }

    double counted(String kind) {
        return registry.counter("payments.discrepancies", "kind", kind).count();
    }

    int sent(String idempotencyKey) {
        psp.stubFor(post(urlPathEqualTo(NOTIFY)).willReturn(aResponse().withStatus(200)));
        relay.runUntilIdle(Duration.ofSeconds(10));
        return psp.findAll(postRequestedFor(urlPathEqualTo(NOTIFY))
                .withHeader("Idempotency-Key", equalTo(idempotencyKey))).size();
    }

    @Test
    @DisplayName("a DECLINED after a COMPLETED refund is ignored: the refund stays DONE, refundedAmount stays, listed, counted and sent once, however often it comes")
    void declinedAfterCompletedRefundIsIgnoredAndListedOnce() {
        String orderRef = paidOrder("40.00");
        String rf = "rf-dc-" + orderRef;
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment(rf, null, "COMPLETED", "25.00")))));
        Response done = refund(orderRef, "dc-1", "25.00");
        assertThat(done.status()).as(done.body()).isEqualTo(201);
        assertThat(done.json().path("pspState").asString()).isEqualTo("COMPLETED");
        String reference = done.json().path("referenceId").asString();
        double before = counted("contradicting_report");

        assertThat(webhook(refundPayment(rf, reference, "DECLINED", "25.00"))).isEqualTo("ignored");
        assertThat(webhook(refundPayment(rf, reference, "DECLINED", "25.00"))).as("a redelivery").isEqualTo("duplicate");
        assertThat(webhook(refundPayment(rf, reference, "CANCELLED", "25.00"))).as("the same contradiction again")
                .isEqualTo("ignored");

        assertThat(shop().order(orderRef).json().path("refundedAmount").asString()).isEqualTo("25.00");
        JsonNode view = admin().get("/api/orders/" + orderRef + "/refunds").json().get(0);
        assertThat(view.path("state").asString()).isEqualTo("DONE");
        assertThat(view.path("pspState").asString()).isEqualTo("COMPLETED");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'refund_failed' AND idempotency_key = :k")
                .param("k", rf + ":refund_failed").query(Integer.class).single()).isZero();

        List<JsonNode> rows = listed(rf);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).path("kind").asString()).isEqualTo("contradicting_report");
        assertThat(rows.get(0).path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(rows.get(0).path("amount").asString()).isEqualTo("25.00");
        assertThat(rows.get(0).path("currency").asString()).isEqualTo("EUR");
        assertThat(rows.get(0).path("detectedAt").asString()).isNotBlank();
        assertThat(rows.get(0).path("detail").asString()).contains(reference, "DECLINED");
        assertThat(counted("contradicting_report") - before).isEqualTo(1.0);

        assertThat(sent(rf + ":contradicting_report")).isEqualTo(1);
        var request = psp.findAll(postRequestedFor(urlPathEqualTo(NOTIFY))
                .withHeader("Idempotency-Key", equalTo(rf + ":contradicting_report"))).get(0);
        JsonNode body = JsonMapper.builder().build().readTree(request.getBodyAsString());
        assertThat(body.path("kind").asString()).isEqualTo("discrepancy");
        assertThat(body.path("discrepancy").asString()).isEqualTo("contradicting_report");
        assertThat(body.path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(body.path("pspPaymentId").asString()).isEqualTo(rf);
        assertThat(body.path("amount").asString()).isEqualTo("25.00");
        assertThat(body.path("currency").asString()).isEqualTo("EUR");
    }

    @Test
    @DisplayName("a DECLINED for the payment that paid the order is ignored (webhook and return page): the order stays PAID, the attempt untouched, listed once")
    void declinedForThePayingPaymentIsIgnoredAndListedOnce() {
        String orderRef = paidOrder("18.00");
        String paid = "pay-" + orderRef;
        String attemptBefore = attemptState(orderRef);
        double before = counted("contradicting_report");

        assertThat(webhook(payment(paid, latestReference(orderRef), "DEPOSIT", "DECLINED", "18.00", "EUR")))
                .isEqualTo("ignored");
        psp.stubFor(getCall(paid).willReturn(okJson(envelope(payment(paid, null, "DEPOSIT", "CANCELLED", "18.00",
                "EUR")))));
        Response returned = shop().order(orderRef); // warm the view, then the customer comes back
        assertThat(returned.status()).isEqualTo(200);
        Response afterReturn = http().bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef + "/return");
        assertThat(afterReturn.status()).as(afterReturn.body()).isEqualTo(200);
        assertThat(afterReturn.json().path("status").asString()).isEqualTo("PAID");

        JsonNode order = shop().order(orderRef).json();
        assertThat(order.path("status").asString()).isEqualTo("PAID");
        assertThat(order.path("pspPaymentId").asString()).isEqualTo(paid);
        assertThat(order.path("paidAmount").asString()).isEqualTo("18.00");
        assertThat(attemptState(orderRef)).as("the attempt is not failed by it").isEqualTo(attemptBefore);
        List<JsonNode> rows = listed(paid);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).path("kind").asString()).isEqualTo("contradicting_report");
        assertThat(rows.get(0).path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(rows.get(0).path("amount").asString()).isEqualTo("18.00");
        assertThat(counted("contradicting_report") - before).isEqualTo(1.0);
        assertThat(sent(paid + ":contradicting_report")).isEqualTo(1);
    }

    String attemptState(String orderRef) {
        return jdbc.sql("""
                SELECT a.state FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref ORDER BY a.id DESC LIMIT 1""").param("ref", orderRef).query(String.class).single();
    }

    @Test
    @DisplayName("a COMPLETED for a refund the PSP had declined changes nothing and is listed")
    void completedForADeclinedRefundIsIgnoredAndListed() {
        String orderRef = paidOrder("30.00");
        String rf = "rf-cd-" + orderRef;
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment(rf, null, "PENDING", "10.00")))));
        String reference = refund(orderRef, "cd-1", "10.00").json().path("referenceId").asString();
        assertThat(webhook(refundPayment(rf, reference, "DECLINED", "10.00"))).isEqualTo("applied");
        assertThat(shop().order(orderRef).json().path("refundedAmount").asString()).isEqualTo("0.00");

        assertThat(webhook(refundPayment(rf, reference, "COMPLETED", "10.00"))).isEqualTo("ignored");

        assertThat(shop().order(orderRef).json().path("refundedAmount").asString()).isEqualTo("0.00");
        JsonNode view = admin().get("/api/orders/" + orderRef + "/refunds").json().get(0);
        assertThat(view.path("state").asString()).isEqualTo("FAILED");
        assertThat(view.path("pspState").asString()).isEqualTo("DECLINED");
        List<JsonNode> rows = listed(rf);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).path("kind").asString()).isEqualTo("contradicting_report");
        assertThat(rows.get(0).path("amount").asString()).isEqualTo("10.00");
    }

    @Test
    @DisplayName("an abandoned refund the PSP made after a new refund took the remainder is an over_refund, listed with the excess, sent once")
    void overRefundIsListedWithTheExcess() {
        String orderRef = paidOrder("20.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String abandoned = refund(orderRef, "or-1", "8.00").json().path("referenceId").asString();
        assertThat(admin().post("/api/admin/refunds/" + abandoned + "/abandon", "{}").status()).isEqualTo(200);
        psp.resetAll();
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-or2-" + orderRef, null, "COMPLETED",
                "15.00")))));
        assertThat(refund(orderRef, "or-2", "15.00").status()).isEqualTo(201);
        double before = counted("over_refund");

        String late = "rf-or1-" + orderRef;
        webhook(refundPayment(late, abandoned, "COMPLETED", "8.00"));
        webhook(refundPayment(late, abandoned, "COMPLETED", "8.00"));

        assertThat(shop().order(orderRef).json().path("refundedAmount").asString()).isEqualTo("15.00");
        List<JsonNode> rows = listed(late);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).path("kind").asString()).isEqualTo("over_refund");
        assertThat(rows.get(0).path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(rows.get(0).path("amount").asString()).as("8 + 15 refunded of 20 paid").isEqualTo("3.00");
        assertThat(counted("over_refund") - before).isEqualTo(1.0);
        assertThat(sent(late + ":over_refund")).isEqualTo(1);
    }

    @Test
    @DisplayName("an unrefunded second charge is listed as duplicate_charge, counted once, and leaves the list once its refund is DONE")
    void unrefundedDuplicateChargeIsListedUntilRefunded() {
        var order = shop().createOrder("9.00", "EUR");
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String hiddenRef = shop().checkout(order.orderRef()).json().path("referenceId").asString();
        assertThat(admin().post("/api/admin/attempts/" + hiddenRef + "/abandon", "{}").status()).isEqualTo(200);
        psp.resetAll();
        String hidden = "pay-dup-" + order.orderRef();
        double before = counted("duplicate_charge");

        assertThat(webhook(payment(hidden, hiddenRef, "DEPOSIT", "COMPLETED", "9.00", "EUR")))
                .isEqualTo("duplicate_charge");
        assertThat(webhook(payment(hidden, hiddenRef, "DEPOSIT", "COMPLETED", "9.00", "EUR"))).isEqualTo("duplicate");

        List<JsonNode> rows = listed(hidden);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).path("kind").asString()).isEqualTo("duplicate_charge");
        assertThat(rows.get(0).path("orderRef").asString()).isEqualTo(order.orderRef());
        assertThat(rows.get(0).path("amount").asString()).isEqualTo("9.00");
        assertThat(rows.get(0).path("currency").asString()).isEqualTo("EUR");
        assertThat(counted("duplicate_charge") - before).isEqualTo(1.0);

        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-dup-" + order.orderRef(), null,
                "COMPLETED", "9.00")))));
        Response refunded = admin().post("/api/admin/duplicate-charges/" + hidden + "/refund", "{}");
        assertThat(refunded.status()).as(refunded.body()).isEqualTo(201);
        assertThat(refunded.json().path("state").asString()).isEqualTo("DONE");
        assertThat(listed(hidden)).as("refunded: no longer a discrepancy").isEmpty();
        assertThat(counted("duplicate_charge") - before).as("the count stays").isEqualTo(1.0);
    }

    @Test
    @DisplayName("GET /api/admin/discrepancies is for the admin key only: 401 without or with a wrong one, 403 for a shop key")
    void theListIsAdminOnly() {
        assertThat(http().get("/api/admin/discrepancies").status()).isEqualTo(401);
        assertThat(http().bearer("wrong-key").get("/api/admin/discrepancies").status()).isEqualTo(401);
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/admin/discrepancies").status()).isEqualTo(403);
        assertThat(admin().get("/api/admin/discrepancies").status()).isEqualTo(200);
    }
}
