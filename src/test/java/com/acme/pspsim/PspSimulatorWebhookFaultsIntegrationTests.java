package com.acme.pspsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/** Webhook faults, observed at an in-test receiver: twice, late, out of order, before the response, never. */
class PspSimulatorWebhookFaultsIntegrationTests {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static RunningSimulator sim;
    private static WebhookReceiver receiver;

    @BeforeAll
    static void start() throws Exception {
        receiver = new WebhookReceiver();
        sim = RunningSimulator.start(Map.of());
    }

    @AfterAll
    static void stop() {
        sim.close();
        receiver.close();
    }

    @BeforeEach
    void reset() {
        sim.reset();
        receiver.answerAfter(0);
    }

    private static String ref() {
        return "ref-" + UUID.randomUUID();
    }

    private String deposit(String ref) {
        return sim.create("""
                {"paymentType":"DEPOSIT","amount":"10.00","currency":"EUR","referenceId":"%s",
                 "returnUrl":"https://shop.test/back","webhookUrl":"%s"}""".formatted(ref, receiver.url()))
                .path("id").asString();
    }

    private void fault(String fault, String ref, String extra) {
        sim.faults("""
                [{"operation":"webhook","fault":"%s","referenceId":"%s"%s}]""".formatted(fault, ref, extra));
    }

    @Test
    @DisplayName("webhook twice: the same signed body arrives two times")
    void deliveredTwice() {
        String ref = ref();
        fault("webhook-twice", ref, "");
        String id = deposit(ref);
        sim.click(id, "pay");
        await().atMost(WAIT).until(() -> receiver.about(id).size() == 2);
        assertThat(receiver.about(id).get(0).body()).isEqualTo(receiver.about(id).get(1).body());
        assertThat(receiver.about(id).get(0).signature()).isEqualTo(receiver.about(id).get(1).signature());
    }

    @Test
    @DisplayName("webhook late: nothing has arrived when the click returns, it arrives after delayMs")
    void deliveredLate() {
        String ref = ref();
        fault("webhook-late", ref, ",\"delayMs\":1500");
        String id = deposit(ref);
        sim.click(id, "pay");
        assertThat(receiver.about(id)).isEmpty();
        await().atMost(WAIT).until(() -> receiver.about(id).size() == 1);
        assertThat(receiver.about(id).get(0).state()).isEqualTo("COMPLETED");
    }

    @Test
    @DisplayName("webhook out of order: AUTHORIZED arrives after COMPLETED")
    void deliveredOutOfOrder() {
        String ref = ref();
        fault("webhook-out-of-order", ref, "");
        String id = deposit(ref);
        sim.click(id, "pay");
        await().atMost(WAIT).until(() -> receiver.about(id).size() == 2);
        assertThat(receiver.about(id)).extracting(WebhookReceiver.Received::state)
                .containsExactly("COMPLETED", "AUTHORIZED");
        WebhookReceiver.Received stale = receiver.about(id).get(1);
        assertThat(stale.signature()).as("a stale copy is still properly signed").isEqualTo(
                java.util.HexFormat.of().formatHex(Signatures.hmac(stale.body(), RunningSimulator.SIGNING_KEY)));
    }

    @Test
    @DisplayName("webhook before the create response: it has arrived and been answered when the create answers")
    void beforeTheCreateResponse() {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"webhook-before-response","referenceId":"%s"}]""".formatted(ref));
        receiver.answerAfter(1000);
        JsonNode created = sim.create("""
                {"paymentType":"DEPOSIT","amount":"10.00","currency":"EUR","referenceId":"%s",
                 "webhookUrl":"%s"}""".formatted(ref, receiver.url()));
        String id = created.path("id").asString();
        assertThat(created.path("state").asString()).as("the answer shows the payment as created")
                .isEqualTo("CHECKOUT");
        assertThat(receiver.about(id)).extracting(WebhookReceiver.Received::state).containsExactly("COMPLETED");
        assertThat(sim.payment(id).path("state").asString()).isEqualTo("COMPLETED");
    }

    @Test
    @DisplayName("webhook before the response of a refund create (operation webhook)")
    void beforeTheRefundResponse() {
        String parent = deposit(ref());
        sim.click(parent, "pay");
        String refundRef = ref();
        fault("webhook-before-response", refundRef, "");
        receiver.answerAfter(1000);
        String refundId = sim.create("""
                {"paymentType":"REFUND","amount":"1.00","currency":"EUR","referenceId":"%s","parentPaymentId":"%s",
                 "webhookUrl":"%s"}""".formatted(refundRef, parent, receiver.url())).path("id").asString();
        assertThat(receiver.about(refundId)).extracting(WebhookReceiver.Received::state).containsExactly("COMPLETED");
    }

    @Test
    @DisplayName("webhook never: recorded as suppressed and never delivered")
    void neverDelivered() {
        String ref = ref();
        fault("webhook-never", ref, "");
        String silent = deposit(ref);
        sim.click(silent, "pay");
        String fence = deposit(ref());
        sim.click(fence, "pay");
        await().atMost(WAIT).until(() -> receiver.about(fence).size() == 1);

        assertThat(receiver.about(silent)).isEmpty();
        JsonNode attempts = RunningSimulator.json(sim.admin("GET", "/sim/webhooks", null).body());
        boolean suppressed = false;
        for (JsonNode a : attempts) {
            if (a.path("paymentId").asString().equals(silent)) {
                assertThat(a.path("note").asString()).isEqualTo("suppressed");
                suppressed = true;
            }
        }
        assertThat(suppressed).isTrue();
        assertThat(sim.payment(silent).path("state").asString()).isEqualTo("COMPLETED");
    }

    @Test
    @DisplayName("every delivery attempt is recorded with the receiver's answer")
    void attemptsAreRecorded() {
        String id = deposit(ref());
        sim.click(id, "pay");
        await().atMost(WAIT).until(() -> receiver.about(id).size() == 1);
        await().atMost(WAIT).until(() -> RunningSimulator.json(sim.admin("GET", "/sim/webhooks", null).body()).size() == 1);
        JsonNode attempt = RunningSimulator.json(sim.admin("GET", "/sim/webhooks", null).body()).get(0);
        assertThat(attempt.path("status").asInt()).isEqualTo(200);
        assertThat(attempt.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(attempt.path("url").asString()).isEqualTo(receiver.url());
    }

    @Test
    @DisplayName("admin late truth: a PENDING refund moves to DECLINED and announces it; a stale copy leaves the payment as it is")
    void lateTruthAndStaleCopyThroughTheAdminApi() {
        String id = deposit(ref());
        sim.click(id, "pay");
        await().atMost(WAIT).until(() -> receiver.about(id).size() == 1);

        assertThat(sim.admin("POST", "/sim/payments/" + id + "/webhook", "{\"state\":\"AUTHORIZED\"}").statusCode())
                .isEqualTo(200);
        await().atMost(WAIT).until(() -> receiver.about(id).size() == 2);
        assertThat(receiver.about(id).get(1).state()).isEqualTo("AUTHORIZED");
        assertThat(sim.payment(id).path("state").asString()).as("unchanged").isEqualTo("COMPLETED");

        assertThat(sim.admin("POST", "/sim/payments/" + id + "/state",
                "{\"state\":\"CANCELLED\",\"errorCode\":\"LATE\"}").statusCode()).isEqualTo(200);
        await().atMost(WAIT).until(() -> receiver.about(id).size() == 3);
        assertThat(receiver.about(id).get(2).state()).isEqualTo("CANCELLED");
        assertThat(sim.payment(id).path("state").asString()).isEqualTo("CANCELLED");
        assertThat(sim.payment(id).path("errorCode").asString()).isEqualTo("LATE");
        assertThat(sim.admin("POST", "/sim/payments/nope/state", "{\"state\":\"DECLINED\"}").statusCode())
                .isEqualTo(404);
    }
}
