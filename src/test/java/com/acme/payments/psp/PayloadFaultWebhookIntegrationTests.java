package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.DatabaseGauges;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PayloadFaults;
import com.acme.payments.support.PayloadFaults.Fault;
import com.acme.payments.support.Shop;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The webhook side: a signed webhook holding a value we cannot book never reaches a
 * constraint. 200 {@code unknown_payment}, the receipt stored and open with its fault, the order untouched,
 * and the replay job later applies the PSP's good truth.
 */
class PayloadFaultWebhookIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    InboxReplayer replayer;

    @Autowired
    PaymentUpdateApplier updates;

    @Autowired
    PspWebhookOrchestrator webhooks;

    @Autowired
    MeterRegistry registry;

    @Autowired
    DatabaseGauges gauges;

    @Autowired
    com.acme.payments.retention.Retentions retentions;

    static Stream<Fault> faultClasses() {
        return PayloadFaults.all();
    }

    @BeforeEach
    void closeOtherTestsReceipts() {
        // every test of the run shares one database: receipts other tests left open are not ours to replay
        jdbc.sql("UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'superseded' WHERE processed_at IS NULL")
                .update();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faultClasses")
    @DisplayName("a signed webhook with a value that cannot be booked: 200 unknown_payment, receipt kept open, order untouched; the replay applies the PSP's truth")
    void payloadFaultKeepsTheReceiptForTheReplay(Fault fault) {
        Shop shop = new Shop(http());
        var order = shop.createOrder(fault.amount(), fault.currency());
        String paymentId = "pay-pf-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", fault.amount(), fault.currency())));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        double faultsBefore = faults("webhook", fault.kind());

        Response answer = shop.webhook(fault.payment(paymentId, null));
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().path("status").asString()).isEqualTo("unknown_payment");
        var receipt = jdbc.sql("""
                SELECT processed_at IS NULL AS open, fault FROM psp_webhook_event WHERE payload ->> 'id' = :p""")
                .param("p", paymentId).query().singleRow();
        assertThat(receipt.get("open")).as("kept, open").isEqualTo(true);
        assertThat(receipt.get("fault")).isEqualTo(fault.kind());
        assertThat(faults("webhook", fault.kind()) - faultsBefore).isEqualTo(1.0);
        Response untouched = shop.order(order.orderRef());
        assertThat(untouched.json().path("status").asString()).isEqualTo("PROCESSING");
        assertThat(untouched.json().path("paidAmount").isMissingNode() || untouched.json().path("paidAmount").isNull())
                .as(untouched.body()).isTrue();

        // the replay's own look-up: while the PSP answers the same fault, the receipt stays open
        backdateReceipt(paymentId);
        double answersBefore = faults("answer", fault.kind());
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(fault.payment(paymentId, null)))));
        assertThat(replayer.replay()).isEqualTo(1);
        assertThat(faults("answer", fault.kind()) - answersBefore).isEqualTo(1.0);
        assertThat(jdbc.sql("SELECT processed_at IS NULL FROM psp_webhook_event WHERE payload ->> 'id' = :p")
                .param("p", paymentId).query(Boolean.class).single()).as("still open").isTrue();
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("PROCESSING");

        backdateReceipt(paymentId);
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(
                payment(paymentId, null, "DEPOSIT", "COMPLETED", "\"" + fault.amount() + "\"", fault.currency())))));
        assertThat(replayer.replay()).isEqualTo(1);
        Response paid = shop.order(order.orderRef());
        assertThat(paid.json().path("status").asString()).isEqualTo("PAID");
        assertThat(paid.json().path("paidAmount").asString()).isEqualTo(fault.amount());
        assertThat(jdbc.sql("SELECT count(*) FROM psp_webhook_event WHERE payment_id = :p AND processed_at IS NULL")
                .param("p", paymentId).query(Integer.class).single()).isZero();
    }

    @Test
    @DisplayName("a webhook whose payment id is over 255 characters (here 100 000) is 200 unknown_payment, kept open and visible, never looked up")
    void overlongIdIsKeptVisibleAndNeverLookedUp() {
        String id = overlongReceipt();
        gauges.refresh();
        assertThat(registry.get("payments.inbox.faulted").gauge().value()).as("visible").isGreaterThanOrEqualTo(1.0);
        assertThat(registry.get("payments.inbox.unprocessed").gauge().value())
                .as("not the replay job's backlog: it can never be looked up").isZero();
        assertThat(jdbc.sql("SELECT processed_at IS NULL FROM psp_webhook_event WHERE payload ->> 'id' = :id")
                .param("id", id).query(Boolean.class).single()).isTrue();
    }

    @Test
    @DisplayName("receipts that can never apply: an overlong id's receipt is closed by the replay job without a PSP call, counted, and pruned after payments.retention.inbox-closed")
    void overlongIdReceiptIsClosedCountedAndPruned() {
        String id = overlongReceipt();
        double closedBefore = registry.find("payments.inbox.unanswerable").counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
        jdbc.sql("UPDATE psp_webhook_event SET received_at = now() - interval '1 hour' WHERE payload ->> 'id' = :id")
                .param("id", id).update();
        psp.resetRequests();

        replayer.replay();

        assertThat(psp.findAll(anyRequestedFor(anyUrl()))).as("the PSP is never asked about it").isEmpty();
        var receipt = jdbc.sql("""
                SELECT processed_at IS NOT NULL AS closed, processed_reason, fault FROM psp_webhook_event
                 WHERE payload ->> 'id' = :id""").param("id", id).query().singleRow();
        assertThat(receipt.get("closed")).isEqualTo(true);
        assertThat(receipt.get("processed_reason")).isEqualTo("ignored");
        assertThat(receipt.get("fault")).as("why, kept").isEqualTo("id_too_long");
        assertThat(registry.get("payments.inbox.unanswerable").counter().count() - closedBefore).isEqualTo(1.0);

        jdbc.sql("UPDATE psp_webhook_event SET processed_at = now() - interval '91 days' WHERE payload ->> 'id' = :id")
                .param("id", id).update();
        retentions.run(InboxPruner.JOB);
        assertThat(jdbc.sql("SELECT count(*) FROM psp_webhook_event WHERE payload ->> 'id' = :id").param("id", id)
                .query(Long.class).single()).as("pruned with the closed receipts").isZero();
    }

    /** Two deliveries of a webhook whose payment id is 100 000 characters: one open receipt, keyed by a digest. */
    private String overlongReceipt() {
        String id = "pay-" + PayloadFaults.incompressible(100_000);
        String body = "{\"id\":\"" + id + "\",\"paymentType\":\"DEPOSIT\",\"state\":\"COMPLETED\",\"amount\":\"10.00\",\"currency\":\"EUR\"}";
        Shop shop = new Shop(http());

        for (int delivery = 1; delivery <= 2; delivery++) { // a redelivery finds the same receipt
            Response answer = shop.webhook(body);
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(answer.json().path("status").asString()).isEqualTo("unknown_payment");
        }
        var receipt = jdbc.sql("""
                SELECT processed_at IS NULL AS open, fault, length(payment_id) AS key_length
                  FROM psp_webhook_event WHERE payload ->> 'id' = :id""").param("id", id).query().singleRow();
        assertThat(receipt.get("open")).isEqualTo(true);
        assertThat(receipt.get("fault")).isEqualTo("id_too_long");
        assertThat((Integer) receipt.get("key_length")).isLessThanOrEqualTo(PayloadFaults.MAX_TEXT);
        return id;
    }

    @Test
    @DisplayName("defence in depth: a value that slips past the rules and breaks a constraint in the apply keeps its receipt open")
    void constraintBrokenInTheApplyKeepsTheReceipt() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("13.00", "EUR");
        String paymentId = "pay-dd-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "13.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        double before = faults("apply", "constraint");

        // straight to the applier, past the edge's rules: EURO reaches orders.paid_currency char(3)
        PspPayment unchecked = new PspPayment(paymentId, null, "DEPOSIT", "COMPLETED", new java.math.BigDecimal("13.00"),
                "EURO", null, null, null, null);
        assertThat(updates.receive(unchecked)).isEqualTo(WebhookOutcome.UNKNOWN_PAYMENT);

        assertThat(jdbc.sql("SELECT processed_at IS NULL FROM psp_webhook_event WHERE payment_id = :p AND state = 'COMPLETED'")
                .param("p", paymentId).query(Boolean.class).single()).as("kept, open").isTrue();
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("PROCESSING");
        assertThat(faults("apply", "constraint") - before).isEqualTo(1.0);
    }

    @Test
    @DisplayName("the webhook's receipt commits before its apply: a constraint broken in the apply rolls the apply back, not the receipt")
    void constraintBrokenInTheWebhooksApplyKeepsItsCommittedReceipt() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("13.00", "EUR");
        String paymentId = "pay-dw-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "13.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        double before = faults("apply", "constraint");

        // past the edge's rules: EURO reaches orders.paid_currency char(3) after the attempt's promote
        PspPayment unchecked = new PspPayment(paymentId, null, "DEPOSIT", "COMPLETED", new java.math.BigDecimal("13.00"),
                "EURO", null, null, null, null);
        assertThat(webhooks.receive(unchecked)).isEqualTo(WebhookOutcome.UNKNOWN_PAYMENT);

        assertThat(jdbc.sql("SELECT processed_at IS NULL FROM psp_webhook_event WHERE payment_id = :p AND state = 'COMPLETED'")
                .param("p", paymentId).query(Boolean.class).single()).as("kept, open").isTrue();
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("PROCESSING");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE aggregate_id = :ref").param("ref", order.orderRef())
                .query(Long.class).single()).as("no effect of the rolled-back apply").isZero();
        assertThat(faults("apply", "constraint") - before).isEqualTo(1.0);
        // and the same delivery again, now valid, applies it: the open receipt is owned again
        assertThat(webhooks.receive(new PspPayment(paymentId, null, "DEPOSIT", "COMPLETED",
                new java.math.BigDecimal("13.00"), "EUR", null, null, null, null))).isEqualTo(WebhookOutcome.APPLIED);
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("PAID");
    }

    private void backdateReceipt(String paymentId) {
        jdbc.sql("UPDATE psp_webhook_event SET received_at = now() - interval '1 hour' WHERE payload ->> 'id' = :p")
                .param("p", paymentId).update();
    }

    private double faults(String source, String kind) {
        var counter = registry.find("payments.psp.payload_faults").tags("source", source, "fault", kind).counter();
        return counter == null ? 0 : counter.count();
    }
}
