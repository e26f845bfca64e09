package com.acme.pspsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The {@code stripe-*} fault rules on the Stripe surface's calls and events, from a real client with a
 * 1 s read timeout (timed-out answers are held 3 s): what each does, and that a replay with the same
 * Idempotency-Key then gets what the call really did.
 */
class StripeSurfaceFaultsIntegrationTests {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(1);
    private static RunningSimulator sim;
    private static StripeReceiver receiver;
    private static StripeClient stripe;

    @BeforeAll
    static void start() throws Exception {
        receiver = new StripeReceiver();
        sim = RunningSimulator.start(Map.of("pspsim.stripe.api-key", StripeClient.KEY,
                "pspsim.stripe.webhook-secret", StripeClient.SECRET,
                "pspsim.stripe.webhook-url", receiver.url(),
                "pspsim.stripe.webhook-retry-delays", "200ms"));
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

    private static String ref() {
        return "att-" + UUID.randomUUID();
    }

    private static String form(String ref) {
        return StripeClient.sessionForm(ref, 1000, Instant.now().getEpochSecond() + 3600, false);
    }

    /** Every parameter fixed once per reference, expires_at included, as the service fixes them at the claim. */
    private final Map<String, String> forms = new java.util.concurrent.ConcurrentHashMap<>();

    private HttpResponse<String> create(String ref) throws IOException, InterruptedException {
        return stripe.send("/v1/checkout/sessions", forms.computeIfAbsent(ref, StripeSurfaceFaultsIntegrationTests::form),
                ref, READ_TIMEOUT);
    }

    private int sessionsWith(String ref) {
        JsonNode all = RunningSimulator.json(sim.admin("GET", "/sim/stripe/sessions", null).body());
        return (int) all.values().stream().filter(s -> ref.equals(s.path("client_reference_id").asString())).count();
    }

    private String paid(String ref) {
        String id = stripe.ok(stripe.post("/v1/checkout/sessions", form(ref), ref)).path("id").asString();
        return RunningSimulator.json(sim.admin("POST", "/sim/stripe/sessions/" + id + "/complete", null).body())
                .path("payment_intent").asString();
    }

    @Test
    void aTimedOutCreateExistsAndTheReplayAnswersIt() throws Exception {
        String ref = ref();
        sim.faults("""
                {"operation":"stripe-session-create","fault":"timeout","referenceId":"%s","times":1}""".formatted(ref));
        assertThatThrownBy(() -> create(ref)).isInstanceOf(HttpTimeoutException.class);
        assertThat(sessionsWith(ref)).isEqualTo(1);
        HttpResponse<String> replay = create(ref);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(RunningSimulator.json(replay.body()).path("client_reference_id").asString()).isEqualTo(ref);
        assertThat(sessionsWith(ref)).isEqualTo(1);
    }

    @Test
    void aResetCreateExistsAndAnErrorBeforeCreatesNothingSoTheReplayCreates() throws Exception {
        String reset = ref();
        sim.faults("""
                {"operation":"stripe-session-create","fault":"reset","referenceId":"%s","times":1}""".formatted(reset));
        assertThatThrownBy(() -> create(reset)).isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);
        assertThat(sessionsWith(reset)).isEqualTo(1);
        assertThat(create(reset).statusCode()).isEqualTo(200);
        assertThat(sessionsWith(reset)).isEqualTo(1);

        String before = ref();
        sim.faults("""
                {"operation":"stripe-session-create","fault":"error-before","referenceId":"%s","times":1}"""
                .formatted(before));
        HttpResponse<String> unavailable = create(before);
        assertThat(unavailable.statusCode()).isEqualTo(503);
        assertThat(RunningSimulator.json(unavailable.body()).path("error").path("type").asString())
                .isEqualTo("api_error");
        assertThat(sessionsWith(before)).isZero();
        HttpResponse<String> again = create(before);
        assertThat(again.statusCode()).as("nothing was stored under the key").isEqualTo(200);
        assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(sessionsWith(before)).isEqualTo(1);
    }

    @Test
    void htmlAndTruncatedAnswersHideWhatTheReplayThenShows() throws Exception {
        String ref = ref();
        sim.faults("""
                [{"operation":"stripe-session-create","fault":"truncated","referenceId":"%1$s","times":1},
                 {"operation":"stripe-session-get","fault":"html","referenceId":"%1$s","times":1}]""".formatted(ref));
        HttpResponse<String> cut = create(ref);
        assertThat(cut.statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> RunningSimulator.json(cut.body())).isInstanceOf(JacksonException.class);
        String id = RunningSimulator.json(create(ref).body()).path("id").asString();
        HttpResponse<String> html = stripe.get("/v1/checkout/sessions/" + id);
        assertThat(html.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(stripe.session(id).path("id").asString()).isEqualTo(id);
    }

    @Test
    void anInvisibleSessionIsMissingFromTheListForAWhileButFoundById() throws Exception {
        String ref = ref();
        sim.faults("""
                {"operation":"stripe-session-create","fault":"invisible","delayMs":1500,"referenceId":"%s"}"""
                .formatted(ref));
        String id = RunningSimulator.json(create(ref).body()).path("id").asString();
        long now = Instant.now().getEpochSecond();
        String list = "/v1/checkout/sessions?created[gte]=" + (now - 60);
        assertThat(stripe.ok(stripe.get(list)).path("data").values()).extracting(n -> n.path("id").asString())
                .doesNotContain(id);
        assertThat(stripe.session(id).path("id").asString()).isEqualTo(id);
        await().atMost(Duration.ofSeconds(10)).until(() -> stripe.ok(stripe.get(list)).path("data").values().stream()
                .anyMatch(n -> n.path("id").asString().equals(id)));
    }

    @Test
    void aCorruptAnswerOnGetThenTheTruth() throws Exception {
        String ref = ref();
        String id = RunningSimulator.json(create(ref).body()).path("id").asString();
        sim.faults("""
                {"operation":"stripe-session-get","fault":"corrupt-answer","referenceId":"%s","field":"amount_total",
                 "value":"-5","times":1}""".formatted(ref));
        HttpResponse<String> corrupt = stripe.get("/v1/checkout/sessions/" + id);
        assertThat(corrupt.body()).contains("\"amount_total\":-5");
        assertThat(stripe.session(id).path("amount_total").asLong()).isEqualTo(1000);
    }

    @Test
    void aTimedOutCaptureHappenedAndItsReplayAnswersTheCapture() throws Exception {
        String ref = ref();
        String id = stripe.ok(stripe.post("/v1/checkout/sessions",
                StripeClient.sessionForm(ref, 1000, Instant.now().getEpochSecond() + 3600, true), ref))
                .path("id").asString();
        String pi = RunningSimulator.json(sim.admin("POST", "/sim/stripe/sessions/" + id + "/complete", null).body())
                .path("payment_intent").asString();
        sim.faults("""
                {"operation":"stripe-intent-capture","fault":"timeout","referenceId":"%s","times":1}""".formatted(pi));
        assertThatThrownBy(() -> stripe.send("/v1/payment_intents/" + pi + "/capture", "", "cap-" + ref, READ_TIMEOUT))
                .isInstanceOf(HttpTimeoutException.class);
        assertThat(stripe.intent(pi).path("status").asString()).isEqualTo("succeeded");
        HttpResponse<String> replay = stripe.post("/v1/payment_intents/" + pi + "/capture", "", "cap-" + ref);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(RunningSimulator.json(replay.body()).path("status").asString()).isEqualTo("succeeded");
    }

    @Test
    void eventFaultsDuplicateDropAndReorder() {
        String twice = ref();
        sim.faults("""
                {"operation":"stripe-event","fault":"webhook-twice","referenceId":"%s","state":"checkout.session.completed"}"""
                .formatted(twice));
        String pi = paid(twice);
        String s1 = sessionOf(pi);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(s1, pi).size() == 3);
        assertThat(receiver.typesAbout(s1, pi)).containsExactly("payment_intent.succeeded",
                "checkout.session.completed", "checkout.session.completed");
        List<StripeReceiver.Received> completed = receiver.about(s1);
        assertThat(completed.get(0).eventId()).isEqualTo(completed.get(1).eventId());

        String never = ref();
        sim.faults("""
                {"operation":"stripe-event","fault":"webhook-never","referenceId":"%s","state":"payment_intent.succeeded"}"""
                .formatted(never));
        String pi2 = paid(never);
        String s2 = sessionOf(pi2);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(s2).size() == 1);
        assertThat(receiver.typesAbout(s2, pi2)).as("the fence: the session's event came, the intent's never")
                .containsExactly("checkout.session.completed");
        JsonNode attempts = RunningSimulator.json(sim.admin("GET", "/sim/stripe/webhooks", null).body());
        assertThat(attempts.values()).anyMatch(a -> a.path("note").asString().equals("suppressed")
                && a.path("objectId").asString().equals(pi2));

        String reorder = ref();
        sim.faults("""
                {"operation":"stripe-event","fault":"webhook-out-of-order","referenceId":"%s","state":"payment_intent.succeeded"}"""
                .formatted(reorder));
        String pi3 = paid(reorder);
        String s3 = sessionOf(pi3);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(s3, pi3).size() == 2);
        assertThat(receiver.typesAbout(s3, pi3)).containsExactly("checkout.session.completed",
                "payment_intent.succeeded");
    }

    @Test
    void anEventBeforeTheResponseIsDeliveredBeforeTheCallAnswers() {
        receiver.answerAfter(1000);
        String ref = ref();
        String id = stripe.ok(stripe.post("/v1/checkout/sessions", form(ref), ref)).path("id").asString();
        sim.faults("""
                {"operation":"stripe-event","fault":"webhook-before-response","referenceId":"%s"}""".formatted(ref));
        stripe.ok(stripe.post("/v1/checkout/sessions/" + id + "/expire", "", "exp-" + ref));
        assertThat(receiver.typesAbout(id)).containsExactly("checkout.session.expired");

        String late = ref();
        String other = stripe.ok(stripe.post("/v1/checkout/sessions", form(late), late)).path("id").asString();
        stripe.ok(stripe.post("/v1/checkout/sessions/" + other + "/expire", "", "exp-" + late));
        assertThat(receiver.about(other)).as("without the rule: after the answer").isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.about(other).size() == 1);
    }

    @Test
    void rulesThatDoNotApplyAreRefused() {
        HttpResponse<String> corruptCreate = sim.admin("POST", "/sim/faults",
                "{\"operation\":\"stripe-session-create\",\"fault\":\"corrupt-answer\",\"field\":\"id\",\"value\":\"x\"}");
        assertThat(corruptCreate.statusCode()).isEqualTo(400);
        HttpResponse<String> invisibleGet = sim.admin("POST", "/sim/faults",
                "{\"operation\":\"stripe-intent-get\",\"fault\":\"invisible\"}");
        assertThat(invisibleGet.statusCode()).isEqualTo(400);
        HttpResponse<String> timeoutEvent = sim.admin("POST", "/sim/faults",
                "{\"operation\":\"stripe-event\",\"fault\":\"timeout\"}");
        assertThat(timeoutEvent.statusCode()).isEqualTo(400);
    }

    @Test
    void aLostRefundCreateStoresNothingAndOnlyItsReplayIsRefused() {
        String pi = paid(ref());
        String refundRef = "rfd-" + UUID.randomUUID();
        String form = "payment_intent=" + pi + "&amount=300&metadata[referenceId]=" + refundRef;
        sim.faults("""
                [{"operation":"stripe-refund-create","fault":"refuse-replay","referenceId":"%s","times":1},
                 {"operation":"stripe-refund-create","fault":"error-before","referenceId":"%s","times":1}]"""
                .formatted(refundRef, refundRef));

        HttpResponse<String> lost = stripe.post("/v1/refunds", form, refundRef);
        assertThat(lost.statusCode()).as("the first send never begins: 503, nothing stored").isEqualTo(503);
        assertThat(refundsOf(pi)).isZero();
        HttpResponse<String> refused = stripe.post("/v1/refunds", form, refundRef);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        JsonNode error = RunningSimulator.json(refused.body()).path("error");
        assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.path("code").asString()).isEqualTo("replay_refused");
        assertThat(refused.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(refundsOf(pi)).isZero();
        assertThat(RunningSimulator.json(sim.admin("GET", "/sim/stripe/idempotency-keys", null).body())
                .path(refundRef).asInt()).as("every POST with the key is counted").isEqualTo(2);

        HttpResponse<String> third = stripe.post("/v1/refunds", form, refundRef);
        assertThat(third.statusCode()).as("nothing was stored under the key: the rule spent, it runs now")
                .isEqualTo(200);
        assertThat(refundsOf(pi)).isEqualTo(1);
    }

    @Test
    void aRefuseReplayRuleLetsTheFirstSendThroughUnspent() {
        String ref = ref();
        sim.faults("""
                {"operation":"stripe-session-create","fault":"refuse-replay","referenceId":"%s","status":402,
                 "errorCode":"amount_too_large","times":1}""".formatted(ref));
        String form = form(ref);
        assertThat(stripe.post("/v1/checkout/sessions", form, ref).statusCode()).isEqualTo(200);
        HttpResponse<String> replay = stripe.post("/v1/checkout/sessions", form, ref);
        assertThat(replay.statusCode()).isEqualTo(402);
        assertThat(RunningSimulator.json(replay.body()).path("error").path("code").asString())
                .isEqualTo("amount_too_large");
        assertThat(stripe.post("/v1/checkout/sessions", form, ref).headers().firstValue("Idempotent-Replayed"))
                .as("the session the first send made is still the key's answer").contains("true");
        assertThat(sessionsWith(ref)).isEqualTo(1);
    }

    private int refundsOf(String pi) {
        JsonNode all = RunningSimulator.json(sim.admin("GET", "/sim/stripe/refunds", null).body());
        return (int) all.values().stream().filter(r -> pi.equals(r.path("payment_intent").asString(""))).count();
    }

    /** The session a PaymentIntent belongs to. */
    private String sessionOf(String pi) {
        JsonNode all = RunningSimulator.json(sim.admin("GET", "/sim/stripe/sessions", null).body());
        return all.values().stream().filter(s -> pi.equals(s.path("payment_intent").asString(""))).findFirst()
                .orElseThrow().path("id").asString();
    }
}
