package com.acme.pspsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/** The simulator's happy paths, seen by a real HTTP client: the PSP Gateway API of docs/providers.md. */
class PspSimulatorApiIntegrationTests {

    private static RunningSimulator sim;
    private static WebhookReceiver receiver;

    @BeforeAll
    static void start() throws Exception {
        receiver = new WebhookReceiver();
        sim = RunningSimulator.start(Map.of("pspsim.refund-decline-amounts", "13.13",
                "pspsim.sink-secrets.notify", "sim-notify-secret"));
    }

    @AfterAll
    static void stop() {
        sim.close();
        receiver.close();
    }

    @BeforeEach
    void reset() {
        sim.reset();
    }

    static String deposit(String ref, String amount, String webhookUrl) {
        return """
                {"paymentType":"DEPOSIT","amount":%s,"currency":"EUR","referenceId":"%s",
                 "returnUrl":"https://shop.test/thank-you","webhookUrl":"%s",
                 "customer":{"referenceId":"cust-1","email":"c@example.test"}}""".formatted(amount, ref, webhookUrl);
    }

    static String ref() {
        return "ref-" + UUID.randomUUID();
    }

    @Test
    void depositPaidOnTheHostedPageSendsASignedWebhookAndTheApiShowsCompleted() {
        JsonNode created = sim.create(deposit(ref(), "10.50", receiver.url()));
        String id = created.path("id").asString();
        assertThat(created.path("state").asString()).isEqualTo("CHECKOUT");
        assertThat(created.path("amount").decimalValue()).isEqualByComparingTo("10.50");
        assertThat(created.path("redirectUrl").asString()).isEqualTo(sim.baseUrl + "/hosted/" + id);

        assertThat(sim.api("GET", "/api/v1/payments/" + id, null).body()).as("the caller's scale is kept")
                .contains("\"amount\":10.50");

        HttpResponse<String> page = sim.call("GET", "/hosted/" + id, null, null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Pay 10.50 EUR", "id=\"pay\"", "id=\"decline\"", "id=\"authorize\"");

        HttpResponse<String> click = sim.click(id, "pay");
        assertThat(click.statusCode()).isEqualTo(303);
        assertThat(click.headers().firstValue("Location")).contains("https://shop.test/thank-you");

        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.about(id).size() == 1);
        WebhookReceiver.Received webhook = receiver.about(id).get(0);
        assertThat(webhook.state()).isEqualTo("COMPLETED");
        assertThat(webhook.json().path("amount").decimalValue()).isEqualByComparingTo("10.50");
        assertThat(webhook.signature()).isEqualTo(HexFormat.of().formatHex(
                Signatures.hmac(webhook.body(), RunningSimulator.SIGNING_KEY)));
        assertThat(webhook.signature()).matches("[0-9a-f]{64}");

        assertThat(sim.payment(id).path("state").asString()).isEqualTo("COMPLETED");
        assertThat(sim.click(id, "pay").statusCode()).as("the page works once").isEqualTo(409);
    }

    @Test
    void declineAndAuthorizeOnlyMoveThePaymentAccordingly() {
        String declined = sim.create(deposit(ref(), "5.00", receiver.url())).path("id").asString();
        sim.click(declined, "decline");
        JsonNode d = sim.payment(declined);
        assertThat(d.path("state").asString()).isEqualTo("DECLINED");
        assertThat(d.path("errorCode").asString()).isNotBlank();

        String authorized = sim.create(deposit(ref(), "5.00", receiver.url())).path("id").asString();
        sim.click(authorized, "authorize");
        assertThat(sim.payment(authorized).path("state").asString()).isEqualTo("AUTHORIZED");
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.about(authorized).size() == 1
                && receiver.about(declined).size() == 1);
        assertThat(receiver.about(authorized).get(0).state()).isEqualTo("AUTHORIZED");
        assertThat(receiver.about(declined).get(0).state()).isEqualTo("DECLINED");
    }

    @Test
    void captureOfAnAuthorizedPaymentCompletesItWithTheCapturedAmount() {
        String id = sim.create(deposit(ref(), "20.00", receiver.url())).path("id").asString();
        sim.click(id, "authorize");

        HttpResponse<String> captured = sim.api("POST", "/api/v1/payments/" + id + "/capture", "{\"amount\":\"15.00\"}");
        assertThat(captured.statusCode()).isEqualTo(200);
        JsonNode result = RunningSimulator.json(captured.body()).path("result");
        assertThat(result.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(result.path("amount").decimalValue()).isEqualByComparingTo("15.00");
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.about(id).size() == 2);
        assertThat(receiver.about(id).get(1).state()).isEqualTo("COMPLETED");

        HttpResponse<String> again = sim.api("POST", "/api/v1/payments/" + id + "/capture", null);
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(RunningSimulator.json(again.body()).path("errorCode").asString()).isEqualTo("INVALID_STATE");
    }

    @Test
    void voidOfAnAuthorizedPaymentCancelsItAndCaptureOfACheckoutIsRefused() {
        String id = sim.create(deposit(ref(), "20.00", receiver.url())).path("id").asString();
        HttpResponse<String> early = sim.api("POST", "/api/v1/payments/" + id + "/capture", null);
        assertThat(early.statusCode()).isEqualTo(409);
        assertThat(RunningSimulator.json(early.body()).path("errorMessage").asString()).contains("AUTHORIZED");

        sim.click(id, "authorize");
        HttpResponse<String> voided = sim.api("POST", "/api/v1/payments/" + id + "/void", null);
        assertThat(voided.statusCode()).isEqualTo(200);
        assertThat(sim.payment(id).path("state").asString()).isEqualTo("CANCELLED");
    }

    @Test
    void refundWithParentPaymentIdCompletesAtOnceAndAnnouncesItself() {
        String parent = sim.create(deposit(ref(), "30.00", receiver.url())).path("id").asString();
        sim.click(parent, "pay");
        String refundRef = ref();
        JsonNode refund = sim.create("""
                {"paymentType":"REFUND","amount":"12.00","currency":"EUR","referenceId":"%s",
                 "parentPaymentId":"%s","webhookUrl":"%s"}""".formatted(refundRef, parent, receiver.url()));
        assertThat(refund.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(refund.path("paymentType").asString()).isEqualTo("REFUND");
        assertThat(refund.path("parentPaymentId").asString()).isEqualTo(parent);
        assertThat(refund.has("redirectUrl")).as("nulls are omitted").isFalse();
        String refundId = refund.path("id").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.about(refundId).size() == 1);
        assertThat(receiver.about(refundId).get(0).json().path("parentPaymentId").asString()).isEqualTo(parent);

        HttpResponse<String> tooMuch = sim.api("POST", "/api/v1/payments", """
                {"paymentType":"REFUND","amount":"18.01","currency":"EUR","referenceId":"%s","parentPaymentId":"%s"}"""
                .formatted(ref(), parent));
        assertThat(tooMuch.statusCode()).isEqualTo(422);
        assertThat(RunningSimulator.json(tooMuch.body()).path("errorCode").asString()).isEqualTo("REFUND_EXCEEDS_PAYMENT");
    }

    @Test
    @DisplayName("a back-office refund is a REFUND of our payment under a foreign reference, announced to its webhook URL, and can be declined later")
    void backOfficeRefundIsAnnouncedAndCanBeDeclinedLater() {
        String parent = sim.create(deposit(ref(), "30.00", receiver.url())).path("id").asString();
        sim.click(parent, "pay");
        HttpResponse<String> made = sim.admin("POST", "/sim/payments/" + parent + "/back_office_refund",
                "{\"amount\":\"10.00\"}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        JsonNode refund = RunningSimulator.json(made.body());
        String refundId = refund.path("id").asString();
        assertThat(refund.path("paymentType").asString()).isEqualTo("REFUND");
        assertThat(refund.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(refund.path("parentPaymentId").asString()).isEqualTo(parent);
        assertThat(refund.path("referenceId").asString()).startsWith("back-office-");
        assertThat(refund.path("amount").decimalValue()).isEqualByComparingTo("10.00");
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.about(refundId).size() == 1);
        assertThat(receiver.about(refundId).get(0).state()).isEqualTo("COMPLETED");

        assertThat(sim.admin("POST", "/sim/payments/" + refundId + "/state", "{\"state\":\"DECLINED\"}").statusCode())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.about(refundId).size() == 2);
        assertThat(receiver.about(refundId).get(1).state()).isEqualTo("DECLINED");

        JsonNode rest = RunningSimulator.json(sim.admin("POST", "/sim/payments/" + parent + "/back_office_refund",
                "{\"referenceId\":\"bo-rest\"}").body());
        assertThat(rest.path("referenceId").asString()).isEqualTo("bo-rest");
        assertThat(rest.path("amount").decimalValue()).as("by default what is left: the declined one gave its amount back")
                .isEqualByComparingTo("30.00");
        HttpResponse<String> tooMuch = sim.admin("POST", "/sim/payments/" + parent + "/back_office_refund",
                "{\"amount\":\"0.01\"}");
        assertThat(tooMuch.statusCode()).isEqualTo(422);
        assertThat(sim.admin("POST", "/sim/payments/pay_none/back_office_refund", "{}").statusCode()).isEqualTo(404);

        String other = sim.create(deposit(ref(), "20.00", receiver.url())).path("id").asString();
        sim.click(other, "pay");
        JsonNode pending = RunningSimulator.json(sim.admin("POST", "/sim/payments/" + other + "/back_office_refund",
                "{\"amount\":\"5.00\",\"state\":\"PENDING\"}").body());
        assertThat(pending.path("state").asString()).as("made pending, to be declined later").isEqualTo("PENDING");
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.about(pending.path("id").asString()).size() == 1);
    }

    @Test
    void invalidRequestsAreRefusedWith4xxAndCreateNothing() {
        String ref = ref();
        HttpResponse<String> unknownParent = sim.api("POST", "/api/v1/payments", """
                {"paymentType":"REFUND","amount":"1.00","currency":"EUR","referenceId":"%s","parentPaymentId":"pay_nope"}"""
                .formatted(ref));
        assertThat(unknownParent.statusCode()).isEqualTo(422);
        JsonNode error = RunningSimulator.json(unknownParent.body());
        assertThat(error.path("errorCode").asString()).isEqualTo("PARENT_NOT_FOUND");
        assertThat(error.path("errorMessage").asString()).isNotBlank();

        HttpResponse<String> noAmount = sim.api("POST", "/api/v1/payments",
                "{\"paymentType\":\"DEPOSIT\",\"currency\":\"EUR\",\"referenceId\":\"" + ref + "\"}");
        assertThat(noAmount.statusCode()).isEqualTo(400);
        assertThat(RunningSimulator.json(noAmount.body()).path("errorCode").asString()).isEqualTo("INVALID_REQUEST");
        assertThat(sim.api("POST", "/api/v1/payments", "{not json").statusCode()).isEqualTo(400);
        assertThat(sim.api("GET", "/api/v1/payments/pay_unknown", null).statusCode()).isEqualTo(404);
        assertThat(sim.createCount(ref)).isZero();
    }

    @Test
    void refundOfAConfiguredAmountIsDeclined() {
        String parent = sim.create(deposit(ref(), "30.00", receiver.url())).path("id").asString();
        sim.click(parent, "pay");
        JsonNode refund = sim.create("""
                {"paymentType":"REFUND","amount":13.13,"currency":"EUR","referenceId":"%s","parentPaymentId":"%s"}"""
                .formatted(ref(), parent));
        assertThat(refund.path("state").asString()).isEqualTo("DECLINED");
        assertThat(refund.path("errorCode").asString()).isEqualTo("REFUND_DECLINED");
    }

    @Test
    void withdrawalCompletesAtOnce() {
        JsonNode w = sim.create("""
                {"paymentType":"WITHDRAWAL","amount":"7.25","currency":"EUR","referenceId":"%s"}""".formatted(ref()));
        assertThat(w.path("state").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void referenceIdIsNotIdempotentAndEveryCreateIsCounted() {
        String ref = ref();
        String first = sim.create(deposit(ref, "10.00", receiver.url())).path("id").asString();
        String second = sim.create(deposit(ref, "10.00", receiver.url())).path("id").asString();
        assertThat(first).isNotEqualTo(second);
        assertThat(sim.createCount(ref)).isEqualTo(2);
        JsonNode found = sim.find(ref);
        assertThat(found.isArray()).isTrue();
        assertThat(List.of(found.get(0).path("id").asString(), found.get(1).path("id").asString()))
                .containsExactly(first, second);
        JsonNode envelope = RunningSimulator.json(
                sim.api("GET", "/api/v1/payments?referenceId.eq=" + ref, null).body());
        assertThat(envelope.path("status").asInt()).isEqualTo(200);
        assertThat(envelope.path("timestamp").asString()).isNotBlank();
    }

    @Test
    void apiWithoutOrWithAWrongKeyIs401AndAdminNeedsItsOwnToken() {
        assertThat(sim.call("GET", "/api/v1/payments?referenceId.eq=x", null, null).statusCode()).isEqualTo(401);
        assertThat(sim.call("GET", "/api/v1/payments?referenceId.eq=x", null, "wrong").statusCode()).isEqualTo(401);
        assertThat(sim.call("GET", "/api/v1/payments?referenceId.eq=x", null, RunningSimulator.ADMIN_TOKEN)
                .statusCode()).isEqualTo(401);
        assertThat(sim.call("GET", "/sim/payments", null, RunningSimulator.API_KEY).statusCode()).isEqualTo(401);
        assertThat(sim.call("GET", "/sim/payments", null, null).statusCode()).isEqualTo(401);
        assertThat(sim.admin("GET", "/sim/payments", null).statusCode()).isEqualTo(200);
    }

    @Test
    void theSinkRecordsWhatItReceives() {
        HttpResponse<String> posted = sim.call("POST", "/sink/fulfilment", "{\"orderRef\":\"o-1\"}", null);
        assertThat(posted.statusCode()).isEqualTo(200);
        JsonNode received = RunningSimulator.json(sim.admin("GET", "/sim/sink", null).body());
        assertThat(received.get(0).path("path").asString()).isEqualTo("/sink/fulfilment");
        assertThat(received.get(0).path("body").asString()).isEqualTo("{\"orderRef\":\"o-1\"}");
    }

    @Test
    @DisplayName("a sink with a secret records only deliveries whose Payments-Signature is valid and fresh")
    void aSinkWithASecretVerifiesPaymentsSignature() throws Exception {
        String body = "{\"kind\":\"renewal_notice\",\"n\":\"" + ref() + "\"}";
        long now = java.time.Instant.now().getEpochSecond();
        String good = sign("sim-notify-secret", now, body);
        assertThat(sink("/sink/notify", body, good).statusCode()).isEqualTo(200);
        assertThat(sink("/sink/notify", body, null).statusCode()).as("unsigned").isEqualTo(400);
        assertThat(sink("/sink/notify", body, sign("another-secret", now, body)).statusCode()).isEqualTo(400);
        assertThat(sink("/sink/notify", body + " ", good).statusCode()).as("changed body").isEqualTo(400);
        assertThat(sink("/sink/notify", body, sign("sim-notify-secret", now - 3600, body)).statusCode())
                .as("an hour old: a replay").isEqualTo(400);
        JsonNode received = RunningSimulator.json(sim.admin("GET", "/sim/sink", null).body());
        long recorded = 0;
        for (JsonNode r : received) {
            if (r.path("body").asString().equals(body)) {
                recorded++;
                assertThat(r.path("signatureVerified").asBoolean()).isTrue();
            }
        }
        assertThat(recorded).isEqualTo(1);
    }

    private static HttpResponse<String> sink(String path, String body, String signature) throws Exception {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(sim.baseUrl + path)).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        if (signature != null) {
            request.header("Payments-Signature", signature);
        }
        return java.net.http.HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String sign(String secret, long t, String body) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "HmacSHA256"));
        return "t=" + t + ",v1=" + java.util.HexFormat.of().formatHex(
                mac.doFinal((t + "." + body).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void runsAloneWithoutTheServiceConfigurationOrADatabase() {
        assertThat(sim.context.getEnvironment().getProperty("payments.psp.read-timeout"))
                .as("application.yml is not read").isNull();
        assertThat(sim.context.getBeanNamesForType(javax.sql.DataSource.class)).isEmpty();
        // by name: the service is not on this module's class path (ModuleBoundaryTests in the service module
        // checks the same with both on one class path, as the development launcher runs them)
        assertThat(java.util.Arrays.stream(sim.context.getBeanDefinitionNames()).map(sim.context::getType)
                .filter(type -> type != null && type.getName().startsWith("com.acme.payments.")).toList())
                .as("the service is not scanned").isEmpty();
        assertThat(sim.call("GET", "/actuator/health", null, null).body()).contains("\"UP\"");
    }

    @Test
    void base64SignaturesWhenConfigured() throws Exception {
        try (RunningSimulator b64 = RunningSimulator.start(Map.of("pspsim.signature-encoding", "base64"))) {
            String id = b64.create(deposit(ref(), "1.00", receiver.url())).path("id").asString();
            b64.click(id, "pay");
            await().atMost(Duration.ofSeconds(30)).until(() -> receiver.about(id).size() == 1);
            WebhookReceiver.Received webhook = receiver.about(id).get(0);
            assertThat(Base64.getDecoder().decode(webhook.signature().getBytes(StandardCharsets.US_ASCII)))
                    .isEqualTo(Signatures.hmac(webhook.body(), RunningSimulator.SIGNING_KEY));
        }
    }
}
