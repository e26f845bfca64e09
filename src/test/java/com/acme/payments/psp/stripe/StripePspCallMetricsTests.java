package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.stripe.StripeProviderTests.SESSIONS;
import static com.acme.payments.psp.stripe.StripeProviderTests.error;
import static com.acme.payments.psp.stripe.StripeProviderTests.list;
import static com.acme.payments.psp.stripe.StripeProviderTests.refund;
import static com.acme.payments.psp.stripe.StripeProviderTests.session;
import static com.acme.payments.psp.stripe.StripeProviderTests.stripeError;
import static com.acme.payments.psp.stripe.StripeTestSupport.PAST_READ_TIMEOUT_MS;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.acme.payments.psp.CreatePayment;
import com.acme.payments.psp.PspRejected;
import com.acme.payments.psp.stripe.StripePspProperties.CaptureMethod;
import com.acme.payments.psp.stripe.StripeTestSupport.MemorySends;
import com.acme.payments.psp.stripe.StripeTestSupport.MovableClock;
import com.acme.payments.support.PspStub;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * {@code payments.psp.calls{operation,outcome}} from the Stripe adapter, in the Gateway's vocabulary
 * (PspCallMetrics, OperationAndPspCallMetricsIntegrationTests): a 2xx is {@code ok}, a confirmed refusal
 * {@code rejected}, a key's trouble (409, {@code idempotency_error}), a 429 and every other ambiguous answer
 * {@code error}, no answer in time {@code timeout}, an object we cannot book {@code unbookable}; each call
 * counted once, under {@code create}, {@code get}, {@code find}, {@code capture} or {@code void}.
 */
class StripePspCallMetricsTests {

    static final Instant START = Instant.parse("2026-12-02T08:00:00Z");

    final WireMockServer stripe = PspStub.server();
    SimpleMeterRegistry meters;
    MovableClock clock;
    MemorySends sends;
    StripeProvider provider;

    @BeforeEach
    void setUp() {
        stripe.resetAll();
        meters = new SimpleMeterRegistry();
        clock = new MovableClock(START);
        sends = new MemorySends();
        provider = StripeTestSupport.provider(stripe.baseUrl(), clock, sends, Duration.ofHours(1),
                CaptureMethod.AUTOMATIC, meters);
    }

    /** Every counted call, {@code operation/outcome} → count, those at zero left out. */
    Map<String, Double> counted() {
        Map<String, Double> counts = new TreeMap<>();
        for (Counter counter : meters.find("payments.psp.calls").counters()) {
            if (counter.count() > 0) {
                counts.put(counter.getId().getTag("operation") + "/" + counter.getId().getTag("outcome"),
                        counter.count());
            }
        }
        return counts;
    }

    CreatePayment claimed(String reference) {
        CreatePayment request = StripeProviderTests.deposit(reference, "19.99", "EUR");
        return request.withFixedRequest(provider.fixRequest(request));
    }

    static Stream<Arguments> answers() {
        return Stream.of(
                Arguments.of("200 session", okJson(session("cs_1", "chk_1", "open", "unpaid")), "ok"),
                Arguments.of("402 card_declined", stripeError(402, error("card_error", "card_declined",
                        "insufficient_funds")), "rejected"),
                Arguments.of("400 parameter_invalid_integer", stripeError(400, error("invalid_request_error",
                        "parameter_invalid_integer", null)), "rejected"),
                Arguments.of("500 api_error", stripeError(500, error("api_error", null, null)), "error"),
                Arguments.of("409 idempotency_key_in_use", stripeError(409, error("invalid_request_error",
                        "idempotency_key_in_use", null)), "error"),
                Arguments.of("400 idempotency_error", stripeError(400, error("idempotency_error", null, null)),
                        "error"),
                Arguments.of("429 rate_limit", stripeError(429, error("invalid_request_error", "rate_limit", null)),
                        "error"),
                Arguments.of("403 without Stripe's error object", aResponse().withStatus(403)
                        .withHeader("Content-Type", "text/html").withBody("<h1>forbidden</h1>"), "error"),
                Arguments.of("200 text/html from a proxy", aResponse().withStatus(200)
                        .withHeader("Content-Type", "text/html").withBody("<html>wait</html>"), "error"),
                Arguments.of("connection reset", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER), "error"),
                Arguments.of("read timeout", okJson(session("cs_1", "chk_1", "open", "unpaid"))
                        .withFixedDelay(PAST_READ_TIMEOUT_MS), "timeout"),
                Arguments.of("200 session in a currency we cannot book", okJson(session("cs_1", "chk_1", "open",
                        "unpaid").replace("\"eur\"", "\"zzz\"")), "unbookable"));
    }

    @ParameterizedTest(name = "{0} → create/{2}")
    @MethodSource("answers")
    @DisplayName("a session create is counted once, by the Gateway's outcomes: a key's trouble and a 429 are errors, not refusals")
    void createIsCountedByOutcome(String answer, ResponseDefinitionBuilder response, String outcome) {
        stripe.stubFor(post(SESSIONS).willReturn(response));

        try {
            provider.create(claimed("chk_1"));
        } catch (RuntimeException expected) {
            // the outcome is the counter's; StripeProviderTests holds the exceptions
        }

        assertThat(counted()).as(answer).containsExactly(Map.entry("create/" + outcome, 1.0));
    }

    @Test
    @DisplayName("a refund is a create, a look-up by id a get (404 rejected, as at the Gateway), capture and void their own")
    void operationsAreTheGatewaysVocabulary() {
        stripe.stubFor(post("/v1/refunds").willReturn(okJson(refund("re_1", "rfd_1", "pending"))));
        stripe.stubFor(get("/v1/refunds/re_404").willReturn(stripeError(404,
                error("invalid_request_error", "resource_missing", null))));
        String intent = """
                {"id":"pi_1","object":"payment_intent","status":"%s","amount":1999,"amount_received":%s,
                 "amount_capturable":%s,"currency":"eur","metadata":{"attempt":"chk_1"}}""";
        stripe.stubFor(get("/v1/payment_intents/pi_1").willReturn(okJson(intent.formatted("requires_capture", 0,
                1999))));
        stripe.stubFor(post("/v1/payment_intents/pi_1/capture").willReturn(okJson(intent.formatted("succeeded", 1000,
                0))));
        stripe.stubFor(post("/v1/payment_intents/pi_1/cancel").willReturn(stripeError(400,
                error("invalid_request_error", "payment_intent_unexpected_state", null))));

        provider.create(CreatePayment.refund("ord-1", new BigDecimal("5.00"), "EUR", "rfd_1", "pi_1", "k-1"));
        assertThat(provider.get("re_404")).isEmpty();
        provider.capture("pi_1", new BigDecimal("10.00"), "cap_1"); // reads the PaymentIntent's currency first
        assertThatThrownBy(() -> provider.voidPayment("pi_1", "void_1")).isInstanceOf(PspRejected.class);

        assertThat(counted()).containsExactly(Map.entry("capture/ok", 1.0), Map.entry("create/ok", 1.0),
                Map.entry("get/ok", 1.0), Map.entry("get/rejected", 1.0), Map.entry("void/rejected", 1.0));
    }

    @Test
    @DisplayName("a reconcile's replay is a create, counted even when its answer is handed back; each listing page a find")
    void reconcileCountsTheReplayAndEveryPage() {
        CreatePayment original = claimed("chk_1");
        stripe.stubFor(post(SESSIONS).willReturn(stripeError(500, error("api_error", null, null))
                .withHeader("Idempotent-Replayed", "true")));
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).atPriority(2).willReturn(okJson(list(true,
                session("cs_a", "chk_a", "open", "unpaid")))));
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).atPriority(1)
                .withQueryParam("starting_after", equalTo("cs_a"))
                .willReturn(okJson(list(false, session("cs_1", "chk_1", "open", "unpaid")))));

        assertThat(provider.reconcile(original).payments()).hasSize(1);

        assertThat(counted()).containsExactly(Map.entry("create/error", 1.0), Map.entry("find/ok", 2.0));
    }

    @Test
    @DisplayName("a listed session of ours we cannot book makes its page unbookable, counted once")
    void anUnbookablePageIsCountedOnce() {
        CreatePayment original = claimed("chk_1");
        sends.recordSend("chk_1", START);
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson(list(false,
                session("cs_1", "chk_1", "open", "unpaid").replace("\"eur\"", "\"zzz\"")))));

        assertThatThrownBy(() -> provider.lookUp(original)).isInstanceOf(RuntimeException.class);

        assertThat(counted()).containsExactly(Map.entry("find/unbookable", 1.0));
    }

    @Test
    @DisplayName("an amount refused before anything is sent is no call")
    void nothingSentIsNothingCounted() {
        assertThatThrownBy(() -> provider.create(StripeProviderTests.deposit("chk_1", "1.235", "BHD")))
                .isInstanceOf(PspRejected.class);

        assertThat(counted()).isEmpty();
        assertThat(meters.find("payments.psp.calls").counters()).as("every pair registered at zero").hasSize(25);
    }
}
