package com.acme.pspsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/** The Stripe surface's calls, idempotency, hosted page and signed events, seen by a real HTTP client. */
class StripeSurfaceApiIntegrationTests {

    private static RunningSimulator sim;
    private static StripeReceiver receiver;
    private static StripeClient stripe;

    @BeforeAll
    static void start() throws Exception {
        receiver = new StripeReceiver();
        sim = RunningSimulator.start(Map.of("pspsim.stripe.api-key", StripeClient.KEY,
                "pspsim.stripe.webhook-secret", StripeClient.SECRET,
                "pspsim.stripe.webhook-url", receiver.url(),
                "pspsim.stripe.webhook-retry-delays", "200ms,200ms",
                "pspsim.stripe.refund-settle-delay", "200ms",
                "pspsim.stripe.refund-fail-amounts", "1313"));
        stripe = new StripeClient(sim.baseUrl);
    }

    @AfterAll
    static void stop() {
        sim.close();
        receiver.close();
    }

    @BeforeEach
    void reset() {
        sim.reset();
        receiver.clear();
    }

    static String ref() {
        return "att-" + UUID.randomUUID();
    }

    static long inAnHour() {
        return Instant.now().getEpochSecond() + 3600;
    }

    private JsonNode create(String ref, long amount, boolean manual) {
        return stripe.ok(stripe.post("/v1/checkout/sessions", StripeClient.sessionForm(ref, amount, inAnHour(), manual),
                ref));
    }

    private JsonNode pay(String sessionId, String outcome) {
        HttpResponse<String> r = sim.admin("POST", "/sim/stripe/sessions/" + sessionId + "/complete",
                "{\"outcome\":\"" + outcome + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return RunningSimulator.json(r.body());
    }

    @Test
    void aCreatedSessionIsOpenUnpaidWithItsHostedPageAndNoPaymentIntentYet() {
        String ref = ref();
        long expires = inAnHour();
        long before = Instant.now().getEpochSecond();
        JsonNode s = stripe.ok(stripe.post("/v1/checkout/sessions", StripeClient.sessionForm(ref, 1050, expires, false),
                ref));
        String id = s.path("id").asString();
        assertThat(id).startsWith("cs_test_");
        assertThat(s.path("object").asString()).isEqualTo("checkout.session");
        assertThat(s.path("url").asString()).isEqualTo(sim.baseUrl + "/stripe/pay/" + id);
        assertThat(s.path("status").asString()).isEqualTo("open");
        assertThat(s.path("payment_status").asString()).isEqualTo("unpaid");
        assertThat(s.path("mode").asString()).isEqualTo("payment");
        assertThat(s.path("amount_total").asLong()).isEqualTo(1050);
        assertThat(s.path("currency").asString()).isEqualTo("eur");
        assertThat(s.path("client_reference_id").asString()).isEqualTo(ref);
        assertThat(s.path("metadata").path("orderRef").asString()).isEqualTo("ord-" + ref);
        assertThat(s.path("metadata").path("attempt").asString()).isEqualTo(ref);
        assertThat(s.has("payment_intent")).isTrue();
        assertThat(s.path("payment_intent").isNull()).as("created on confirmation since 2022-08-01").isTrue();
        assertThat(s.path("expires_at").asLong()).isEqualTo(expires);
        assertThat(s.path("created").asLong()).isBetween(before, before + 5);
        assertThat(s.path("livemode").asBoolean()).isFalse();

        assertThat(stripe.session(id).path("client_reference_id").asString()).isEqualTo(ref);
        HttpResponse<String> missing = stripe.get("/v1/checkout/sessions/cs_test_nope");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(RunningSimulator.json(missing.body()).path("error").path("code").asString())
                .isEqualTo("resource_missing");
    }

    @Test
    void theListFiltersByCreatedAndPagesNewestFirst() {
        String a = create(ref(), 100, false).path("id").asString();
        String b = create(ref(), 200, false).path("id").asString();
        String c = create(ref(), 300, false).path("id").asString();
        long now = Instant.now().getEpochSecond();
        JsonNode page = stripe.ok(stripe.get("/v1/checkout/sessions?created[gte]=" + (now - 60) + "&created[lte]="
                + (now + 60) + "&limit=2"));
        assertThat(page.path("object").asString()).isEqualTo("list");
        assertThat(page.path("url").asString()).isEqualTo("/v1/checkout/sessions");
        assertThat(page.path("has_more").asBoolean()).isTrue();
        assertThat(page.path("data").values()).extracting(n -> n.path("id").asString()).containsExactly(c, b);
        JsonNode next = stripe.ok(stripe.get("/v1/checkout/sessions?created[gte]=" + (now - 60) + "&limit=2"
                + "&starting_after=" + b));
        assertThat(next.path("has_more").asBoolean()).isFalse();
        assertThat(next.path("data").values()).extracting(n -> n.path("id").asString()).containsExactly(a);
        JsonNode none = stripe.ok(stripe.get("/v1/checkout/sessions?created[lte]=" + (now - 60)));
        assertThat(none.path("data").isEmpty()).isTrue();
        assertThat(stripe.get("/v1/checkout/sessions?client_reference_id=x").statusCode())
                .as("not a Stripe filter").isEqualTo(400);
    }

    @Test
    void theSameKeyAndParametersReplayTheFirstAnswerAndCreateNothingMore() {
        String ref = ref();
        String form = StripeClient.sessionForm(ref, 500, inAnHour(), false);
        HttpResponse<String> first = stripe.post("/v1/checkout/sessions", form, ref);
        HttpResponse<String> again = stripe.post("/v1/checkout/sessions", form, ref);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(sessionsWith(ref)).isEqualTo(1);

        HttpResponse<String> other = stripe.post("/v1/checkout/sessions", form.replace("unit_amount]=500",
                "unit_amount]=501"), ref);
        assertThat(other.statusCode()).isEqualTo(400);
        assertThat(RunningSimulator.json(other.body()).path("error").path("type").asString())
                .isEqualTo("idempotency_error");
        HttpResponse<String> elsewhere = stripe.post("/v1/refunds", "payment_intent=pi_x", ref);
        assertThat(elsewhere.statusCode()).as("another endpoint with the same key").isEqualTo(400);
        assertThat(RunningSimulator.json(elsewhere.body()).path("error").path("type").asString())
                .isEqualTo("idempotency_error");
        assertThat(sessionsWith(ref)).isEqualTo(1);
    }

    @Test
    void aKeyStillExecutingIsA409AndAStoredServerErrorIsReplayed() throws Exception {
        String ref = ref();
        String form = StripeClient.sessionForm(ref, 700, inAnHour(), false);
        sim.faults("""
                {"operation":"stripe-session-create","fault":"latency","delayMs":1500,"referenceId":"%s","times":1}"""
                .formatted(ref));
        CompletableFuture<HttpResponse<String>> slow = CompletableFuture
                .supplyAsync(() -> stripe.post("/v1/checkout/sessions", form, ref));
        Thread.sleep(500);
        HttpResponse<String> concurrent = stripe.post("/v1/checkout/sessions", form, ref);
        assertThat(concurrent.statusCode()).isEqualTo(409);
        JsonNode error = RunningSimulator.json(concurrent.body()).path("error");
        assertThat(error.path("type").asString()).isEqualTo("idempotency_error");
        assertThat(error.path("code").asString()).isEqualTo("idempotency_key_in_use");
        HttpResponse<String> first = slow.get();
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(stripe.post("/v1/checkout/sessions", form, ref).body()).isEqualTo(first.body());

        String ref2 = ref();
        String form2 = StripeClient.sessionForm(ref2, 700, inAnHour(), false);
        sim.faults("""
                {"operation":"stripe-session-create","fault":"error-after","referenceId":"%s","times":1}"""
                .formatted(ref2));
        HttpResponse<String> failed = stripe.post("/v1/checkout/sessions", form2, ref2);
        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(RunningSimulator.json(failed.body()).path("error").path("type").asString()).isEqualTo("api_error");
        HttpResponse<String> replay = stripe.post("/v1/checkout/sessions", form2, ref2);
        assertThat(replay.statusCode()).as("the stored 5xx, though the rule is spent").isEqualTo(500);
        assertThat(replay.body()).isEqualTo(failed.body());
        assertThat(sessionsWith(ref2)).as("it was created all the same").isEqualTo(1);
    }

    @Test
    void anExpiryOutsideThirtyMinutesToTwentyFourHoursIsRefusedAndStoresNothing() {
        String ref = ref();
        long now = Instant.now().getEpochSecond();
        HttpResponse<String> soon = stripe.post("/v1/checkout/sessions",
                StripeClient.sessionForm(ref, 100, now + 29 * 60, false), ref);
        assertThat(soon.statusCode()).isEqualTo(400);
        JsonNode error = RunningSimulator.json(soon.body()).path("error");
        assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.path("param").asString()).isEqualTo("expires_at");
        assertThat(stripe.post("/v1/checkout/sessions", StripeClient.sessionForm(ref, 100, now + 24 * 3600 + 60, false),
                ref).statusCode()).as("validation stored nothing under the key").isEqualTo(400);
        assertThat(stripe.post("/v1/checkout/sessions", StripeClient.sessionForm(ref, 100, now + 31 * 60, false), ref)
                .statusCode()).isEqualTo(200);
        assertThat(stripe.post("/v1/checkout/sessions", "mode=payment&bogus=1", null).statusCode()).isEqualTo(400);
    }

    @Test
    void theKeyIsRequiredAsBearerOrBasicAndRefusalsHaveStripesShape() {
        HttpResponse<String> none = stripe.get("/v1/checkout/sessions", null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(RunningSimulator.json(none.body()).path("error").path("type").asString())
                .isEqualTo("invalid_request_error");
        assertThat(stripe.get("/v1/checkout/sessions", "Bearer sk_test_wrong").statusCode()).isEqualTo(401);
        assertThat(stripe.get("/v1/checkout/sessions", "Bearer " + RunningSimulator.API_KEY).statusCode())
                .as("the gateway's key is not Stripe's").isEqualTo(401);
        String basic = Base64.getEncoder().encodeToString((StripeClient.KEY + ":").getBytes());
        assertThat(stripe.get("/v1/checkout/sessions", "Basic " + basic).statusCode()).isEqualTo(200);
    }

    @Test
    void payingSendsSignedEventsAndCompletesTheSession() {
        String ref = ref();
        String id = create(ref, 1999, false).path("id").asString();
        JsonNode paid = pay(id, "pay");
        String pi = paid.path("payment_intent").asString();
        assertThat(pi).startsWith("pi_");
        assertThat(paid.path("status").asString()).isEqualTo("complete");
        assertThat(paid.path("payment_status").asString()).isEqualTo("paid");
        assertThat(paid.path("url").isNull()).as("only present while active").isTrue();

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(id, pi).size() == 2);
        assertThat(receiver.typesAbout(id, pi)).containsExactly("payment_intent.succeeded",
                "checkout.session.completed");
        for (StripeReceiver.Received event : receiver.about(id, pi)) {
            assertThat(event.signature()).matches("t=\\d+,v1=[0-9a-f]{64}");
            assertThat(event.signedWith(StripeClient.SECRET)).isTrue();
            assertThat(event.signedWith("whsec_other")).isFalse();
            JsonNode e = event.json();
            assertThat(e.path("id").asString()).startsWith("evt_");
            assertThat(e.path("object").asString()).isEqualTo("event");
            assertThat(e.path("api_version").asString()).isEqualTo("2025-08-27.basil");
            assertThat(e.path("livemode").asBoolean()).isFalse();
            assertThat(e.path("pending_webhooks").asInt()).isEqualTo(1);
            assertThat(e.has("request") && e.has("created")).isTrue();
        }
        JsonNode completed = receiver.about(id).get(0).object();
        assertThat(completed.path("payment_status").asString()).isEqualTo("paid");
        assertThat(completed.path("metadata").path("attempt").asString()).isEqualTo(ref);
        JsonNode intent = stripe.intent(pi);
        assertThat(intent.path("status").asString()).isEqualTo("succeeded");
        assertThat(intent.path("amount_received").asLong()).isEqualTo(1999);
        assertThat(intent.path("metadata").path("attempt").asString()).isEqualTo(ref);
        assertThat(intent.path("latest_charge").asString()).startsWith("ch_");
        assertThat(stripe.session(id).path("payment_intent").asString()).isEqualTo(pi);
    }

    @Test
    void theHostedPagePaysAndGoesToTheSuccessUrlADeclineStaysOpen() {
        String id = create(ref(), 1200, false).path("id").asString();
        HttpResponse<String> page = sim.call("GET", "/stripe/pay/" + id, null, null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"pay\"", "id=\"decline\"", "id=\"async\"", "id=\"back\"");

        HttpResponse<String> declined = sim.call("POST", "/stripe/pay/" + id + "/decline", "", null);
        assertThat(declined.statusCode()).isEqualTo(303);
        assertThat(declined.headers().firstValue("Location")).contains("/stripe/pay/" + id);
        JsonNode s = stripe.session(id);
        assertThat(s.path("status").asString()).isEqualTo("open");
        String pi = s.path("payment_intent").asString();
        assertThat(stripe.intent(pi).path("last_payment_error").path("code").asString()).isEqualTo("card_declined");

        HttpResponse<String> paid = sim.call("POST", "/stripe/pay/" + id + "/pay", "", null);
        assertThat(paid.statusCode()).isEqualTo(303);
        assertThat(paid.headers().firstValue("Location")).contains("https://shop.test/back?s=" + id);
        assertThat(sim.call("POST", "/stripe/pay/" + id + "/pay", "", null).statusCode()).as("once").isEqualTo(409);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(id, pi).size() == 3);
        assertThat(receiver.typesAbout(id, pi)).containsExactly("payment_intent.payment_failed",
                "payment_intent.succeeded", "checkout.session.completed");
    }

    @Test
    void manualCaptureAuthorizesThenCapturesPartOfTheAmount() {
        String id = create(ref(), 2000, true).path("id").asString();
        JsonNode done = pay(id, "pay");
        assertThat(done.path("status").asString()).isEqualTo("complete");
        assertThat(done.path("payment_status").asString()).isEqualTo("unpaid");
        String pi = done.path("payment_intent").asString();
        JsonNode authorized = stripe.intent(pi);
        assertThat(authorized.path("status").asString()).isEqualTo("requires_capture");
        assertThat(authorized.path("amount_capturable").asLong()).isEqualTo(2000);
        assertThat(authorized.path("capture_method").asString()).isEqualTo("manual");

        JsonNode captured = stripe.ok(stripe.post("/v1/payment_intents/" + pi + "/capture", "amount_to_capture=1500",
                "cap-" + pi));
        assertThat(captured.path("status").asString()).isEqualTo("succeeded");
        assertThat(captured.path("amount_received").asLong()).isEqualTo(1500);
        assertThat(captured.path("amount_capturable").asLong()).isZero();
        HttpResponse<String> again = stripe.post("/v1/payment_intents/" + pi + "/capture", "", "cap2-" + pi);
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(RunningSimulator.json(again.body()).path("error").path("code").asString())
                .isEqualTo("payment_intent_unexpected_state");
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(id, pi).size() == 3);
        assertThat(receiver.typesAbout(id, pi)).containsExactly("payment_intent.amount_capturable_updated",
                "checkout.session.completed", "payment_intent.succeeded");
        assertThat(receiver.about(id).get(0).object().path("payment_status").asString()).isEqualTo("unpaid");
    }

    @Test
    void expandPaymentIntentAnswersTheSessionsPaymentIntentInPlaceOfItsId() {
        // the service reads a session with expand[]=payment_intent: only the PaymentIntent tells a manual
        // capture's authorization (the session completes unpaid) from a delayed payment still under way
        String id = create(ref(), 2000, true).path("id").asString();
        String pi = pay(id, "pay").path("payment_intent").asString();
        JsonNode read = stripe.ok(stripe.get("/v1/checkout/sessions/" + id + "?expand%5B%5D=payment_intent"));
        assertThat(read.path("payment_intent").path("id").asString()).isEqualTo(pi);
        assertThat(read.path("payment_intent").path("status").asString()).isEqualTo("requires_capture");
        JsonNode listed = stripe.ok(stripe.get("/v1/checkout/sessions?expand%5B%5D=data.payment_intent"));
        assertThat(listed.path("data").get(0).path("payment_intent").path("status").asString())
                .isEqualTo("requires_capture");
        assertThat(stripe.session(id).path("payment_intent").asString()).isEqualTo(pi);
    }

    @Test
    void cancelOfAnAuthorizationVoidsItButNotAPaymentIntentOfAnOpenSession() {
        String id = create(ref(), 2000, true).path("id").asString();
        String pi = pay(id, "pay").path("payment_intent").asString();
        JsonNode canceled = stripe.ok(stripe.post("/v1/payment_intents/" + pi + "/cancel",
                "cancellation_reason=requested_by_customer", "void-" + pi));
        assertThat(canceled.path("status").asString()).isEqualTo("canceled");
        assertThat(canceled.path("cancellation_reason").asString()).isEqualTo("requested_by_customer");
        assertThat(canceled.path("canceled_at").asLong()).isPositive();
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.typesAbout(pi).contains("payment_intent.canceled"));
        assertThat(stripe.post("/v1/payment_intents/" + pi + "/cancel", "", "void2-" + pi).statusCode()).isEqualTo(400);

        String open = create(ref(), 900, false).path("id").asString();
        String declined = pay(open, "decline").path("payment_intent").asString();
        HttpResponse<String> refused = stripe.post("/v1/payment_intents/" + declined + "/cancel", "", "void-" + declined);
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(stripe.intent(declined).path("status").asString()).isEqualTo("requires_payment_method");
    }

    @Test
    void theRefundsOfAPaymentIntentAreListedNewestFirstAndPaged() {
        // the service's reconcile of an ambiguous refund create lists GET /v1/refunds?payment_intent=…
        String pi = pay(create(ref(), 3000, false).path("id").asString(), "pay").path("payment_intent").asString();
        String other = pay(create(ref(), 3000, false).path("id").asString(), "pay").path("payment_intent").asString();
        for (int i = 1; i <= 3; i++) {
            stripe.ok(stripe.post("/v1/refunds", "payment_intent=" + pi + "&amount=100&metadata[referenceId]=lr-" + i,
                    "lr-" + i));
        }
        stripe.ok(stripe.post("/v1/refunds", "payment_intent=" + other + "&amount=100", "lr-other"));
        JsonNode first = stripe.ok(stripe.get("/v1/refunds?payment_intent=" + pi + "&limit=2"));
        assertThat(first.path("object").asString()).isEqualTo("list");
        assertThat(first.path("url").asString()).isEqualTo("/v1/refunds");
        assertThat(first.path("has_more").asBoolean()).isTrue();
        assertThat(first.path("data").findValuesAsString("referenceId")).containsExactly("lr-3", "lr-2");
        String last = first.path("data").get(1).path("id").asString();
        JsonNode second = stripe.ok(stripe.get("/v1/refunds?payment_intent=" + pi + "&limit=2&starting_after=" + last));
        assertThat(second.path("has_more").asBoolean()).isFalse();
        assertThat(second.path("data").findValuesAsString("referenceId")).containsExactly("lr-1");
        assertThat(stripe.ok(stripe.get("/v1/refunds")).path("data").size()).isEqualTo(4);
    }

    @Test
    void aRefundIsPendingThenSucceeds() {
        String id = create(ref(), 3000, false).path("id").asString();
        String pi = pay(id, "pay").path("payment_intent").asString();
        JsonNode refund = stripe.ok(stripe.post("/v1/refunds", "payment_intent=" + pi
                + "&amount=1000&metadata[refundKey]=rk-1&metadata[referenceId]=rf-1", "rf-1"));
        String re = refund.path("id").asString();
        assertThat(re).startsWith("re_");
        assertThat(refund.path("object").asString()).isEqualTo("refund");
        assertThat(refund.path("status").asString()).isEqualTo("pending");
        assertThat(refund.path("amount").asLong()).isEqualTo(1000);
        assertThat(refund.path("payment_intent").asString()).isEqualTo(pi);
        assertThat(refund.path("metadata").path("refundKey").asString()).isEqualTo("rk-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> "succeeded".equals(stripe.refund(re).path("status").asString()));
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.typesAbout(re, pi).contains("refund.updated"));
        assertThat(receiver.typesAbout(re)).containsExactly("refund.created", "refund.updated");
        assertThat(receiver.about(pi).stream().filter(r -> r.type().equals("charge.refunded")).findFirst().orElseThrow()
                .object().path("amount_refunded").asLong()).isEqualTo(1000);

        HttpResponse<String> tooMuch = stripe.post("/v1/refunds", "payment_intent=" + pi + "&amount=2001", "rf-2");
        assertThat(tooMuch.statusCode()).isEqualTo(400);
        assertThat(RunningSimulator.json(tooMuch.body()).path("error").path("param").asString()).isEqualTo("amount");
    }

    @Test
    void aFailedRefundSendsBothRefundUpdatedAndRefundFailed() {
        String id = create(ref(), 3000, false).path("id").asString();
        String pi = pay(id, "pay").path("payment_intent").asString();
        String re = stripe.ok(stripe.post("/v1/refunds", "payment_intent=" + pi + "&amount=1313&metadata[referenceId]=rf-x",
                "rf-x")).path("id").asString();
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.typesAbout(re).size() == 3);
        assertThat(receiver.typesAbout(re)).containsExactly("refund.created", "refund.updated", "refund.failed");
        assertThat(receiver.about(re).get(2).object().path("status").asString()).isEqualTo("failed");
        JsonNode failed = stripe.refund(re);
        assertThat(failed.path("status").asString()).isEqualTo("failed");
        assertThat(failed.path("failure_reason").asString()).isEqualTo("declined");
        assertThat(stripe.post("/v1/refunds", "payment_intent=" + pi + "&amount=3000", "rf-y").statusCode())
                .as("a failed refund gives its amount back").isEqualTo(200);
    }

    @Test
    @DisplayName("a Dashboard refund carries no metadata of the service's, sends refund.created and refund.updated, and can fail later with refund.updated and refund.failed")
    void aDashboardRefundHasNoMetadataAndCanFailLater() {
        String id = create(ref(), 3000, false).path("id").asString();
        String pi = pay(id, "pay").path("payment_intent").asString();
        HttpResponse<String> made = sim.admin("POST", "/sim/stripe/payment_intents/" + pi + "/dashboard_refund",
                "{\"amount\":1200}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        JsonNode refund = RunningSimulator.json(made.body());
        String re = refund.path("id").asString();
        assertThat(re).startsWith("re_");
        assertThat(refund.path("payment_intent").asString()).isEqualTo(pi);
        assertThat(refund.path("amount").asLong()).isEqualTo(1200);
        assertThat(refund.path("metadata").isEmpty()).as("no metadata[referenceId]: not the service's").isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.typesAbout(re).contains("refund.updated"));
        assertThat(receiver.typesAbout(re)).containsExactly("refund.created", "refund.updated");
        assertThat(stripe.refund(re).path("status").asString()).isEqualTo("succeeded");

        HttpResponse<String> failed = sim.admin("POST", "/sim/stripe/refunds/" + re + "/fail",
                "{\"failure_reason\":\"expired_or_canceled_card\"}");
        assertThat(failed.statusCode()).as(failed.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.typesAbout(re).size() == 4);
        assertThat(receiver.typesAbout(re)).containsExactly("refund.created", "refund.updated", "refund.updated",
                "refund.failed");
        assertThat(receiver.about(re).get(3).object().path("failure_reason").asString())
                .isEqualTo("expired_or_canceled_card");
        assertThat(stripe.refund(re).path("status").asString()).isEqualTo("failed");
        assertThat(sim.admin("POST", "/sim/stripe/refunds/" + re + "/fail", "{}").statusCode())
                .as("a failed refund fails once").isEqualTo(400);
        JsonNode rest = RunningSimulator.json(sim.admin("POST", "/sim/stripe/payment_intents/" + pi + "/dashboard_refund",
                null).body());
        assertThat(rest.path("amount").asLong()).as("by default what is left: the failed one gave its amount back")
                .isEqualTo(3000);
    }

    @Test
    void anAsyncPaymentCompletesUnpaidThenSucceedsOrFails() {
        String ok = create(ref(), 800, false).path("id").asString();
        JsonNode pending = pay(ok, "async");
        assertThat(pending.path("status").asString()).isEqualTo("complete");
        assertThat(pending.path("payment_status").asString()).isEqualTo("unpaid");
        String pi = pending.path("payment_intent").asString();
        assertThat(stripe.intent(pi).path("status").asString()).isEqualTo("processing");
        HttpResponse<String> settled = sim.admin("POST", "/sim/stripe/sessions/" + ok + "/async", "{\"result\":\"succeeded\"}");
        assertThat(RunningSimulator.json(settled.body()).path("payment_status").asString()).isEqualTo("paid");
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(ok, pi).size() == 3);
        assertThat(receiver.typesAbout(ok, pi)).containsExactly("checkout.session.completed",
                "payment_intent.succeeded", "checkout.session.async_payment_succeeded");

        String bad = create(ref(), 800, false).path("id").asString();
        String pi2 = pay(bad, "async").path("payment_intent").asString();
        sim.call("POST", "/stripe/pay/" + bad + "/async-failed", "", null);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(bad, pi2).size() == 3);
        assertThat(receiver.typesAbout(bad, pi2)).containsExactly("checkout.session.completed",
                "payment_intent.payment_failed", "checkout.session.async_payment_failed");
        assertThat(stripe.session(bad).path("payment_status").asString()).isEqualTo("unpaid");
    }

    @Test
    void aSessionExpiresByTheApiOrTheAdminHookAndSaysSo() {
        String a = create(ref(), 100, false).path("id").asString();
        JsonNode expired = stripe.ok(stripe.post("/v1/checkout/sessions/" + a + "/expire", "", "exp-" + a));
        assertThat(expired.path("status").asString()).isEqualTo("expired");
        assertThat(expired.path("url").isNull()).isTrue();
        String b = create(ref(), 100, false).path("id").asString();
        assertThat(sim.admin("POST", "/sim/stripe/sessions/" + b + "/expire", null).statusCode()).isEqualTo(200);
        assertThat(sim.admin("POST", "/sim/stripe/sessions/" + b + "/expire", null).statusCode()).isEqualTo(400);
        assertThat(sim.admin("POST", "/sim/stripe/sessions/" + b + "/complete", null).statusCode())
                .as("an expired session cannot be paid").isEqualTo(400);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(a, b).size() == 2);
        assertThat(receiver.typesAbout(a, b)).containsOnly("checkout.session.expired");
        assertThat(sim.call("POST", "/sim/stripe/sessions/" + b + "/expire", null, StripeClient.KEY).statusCode())
                .as("the admin hooks need the admin token").isEqualTo(401);
    }

    @Test
    void anEventTheEndpointRefusesIsRetriedWithAFreshSignature() {
        receiver.failNext(2);
        String id = create(ref(), 100, false).path("id").asString();
        stripe.ok(stripe.post("/v1/checkout/sessions/" + id + "/expire", "", "exp-" + id));
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(id).size() == 3);
        assertThat(receiver.about(id)).extracting(StripeReceiver.Received::eventId).containsOnly(
                receiver.about(id).get(0).eventId());
        JsonNode attempts = RunningSimulator.json(sim.admin("GET", "/sim/stripe/webhooks", null).body());
        assertThat(attempts.values()).extracting(n -> n.path("note").asString()).containsExactly("delivery",
                "retry 1", "retry 2");
        assertThat(attempts.values()).extracting(n -> n.path("status").asInt()).containsExactly(500, 500, 200);
        JsonNode event = RunningSimulator.json(sim.admin("GET", "/sim/stripe/events", null).body()).get(0);
        assertThat(event.path("request").path("idempotency_key").asString()).isEqualTo("exp-" + id);
    }

    @Test
    void theGatewaysResetForgetsTheStripeSurfaceToo() {
        String ref = ref();
        create(ref, 100, false);
        sim.reset();
        assertThat(sessionsWith(ref)).isZero();
        assertThat(stripe.post("/v1/checkout/sessions", StripeClient.sessionForm(ref, 999, inAnHour(), false), ref)
                .statusCode()).as("the key is forgotten too").isEqualTo(200);
    }

    private int sessionsWith(String ref) {
        JsonNode all = RunningSimulator.json(sim.admin("GET", "/sim/stripe/sessions", null).body());
        return (int) all.values().stream().filter(s -> ref.equals(s.path("client_reference_id").asString())).count();
    }
}
