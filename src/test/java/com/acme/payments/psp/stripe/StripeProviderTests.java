package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.stripe.StripeTestSupport.PAST_READ_TIMEOUT_MS;
import static com.acme.payments.psp.stripe.StripeTestSupport.form;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import com.acme.payments.psp.CreatePayment;
import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PaymentProvider.Lookup;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.PspRejected;
import com.acme.payments.psp.stripe.StripePspProperties.CaptureMethod;
import com.acme.payments.psp.stripe.StripeTestSupport.MemorySends;
import com.acme.payments.psp.stripe.StripeTestSupport.MovableClock;
import com.acme.payments.support.PspStub;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

/**
 * The Stripe client matrix, as the Gateway's (PspFaultMatrixIntegrationTests): every ambiguous ending is
 * unknown, every confirmed refusal is one, a key's own troubles (409, idempotency_error) are never a
 * refusal; a reconcile replays the stored bytes under the same key, and lists — proving nothing created
 * only past the in-flight age.
 */
class StripeProviderTests {

    static final Instant START = Instant.parse("2026-12-02T08:00:00Z");
    static final String SESSIONS = "/v1/checkout/sessions";

    final WireMockServer stripe = PspStub.server();
    MovableClock clock;
    MemorySends sends;
    StripeProvider provider;

    @BeforeEach
    void setUp() {
        stripe.resetAll();
        clock = new MovableClock(START);
        sends = new MemorySends();
        provider = provider(Duration.ofHours(1), CaptureMethod.AUTOMATIC);
    }

    StripeProvider provider(Duration lifetime, CaptureMethod capture) {
        return StripeTestSupport.provider(stripe.baseUrl(), clock, sends, lifetime, capture);
    }

    static String session(String id, String reference, String status, String paymentStatus) {
        return """
                {"id":"%s","object":"checkout.session","status":"%s","payment_status":"%s","payment_intent":null,
                 "client_reference_id":"%s","amount_total":1999,"currency":"eur",
                 "url":"https://checkout.stripe.com/c/pay/%s","metadata":{"orderRef":"ord-1","attempt":"%s"}}
                """.formatted(id, status, paymentStatus, reference, id, reference);
    }

    static String list(boolean hasMore, String... objects) {
        return "{\"object\":\"list\",\"has_more\":" + hasMore + ",\"data\":[" + String.join(",", objects) + "]}";
    }

    static String error(String type, String code, String declineCode) {
        return "{\"error\":{\"type\":\"" + type + "\"" + (code == null ? "" : ",\"code\":\"" + code + "\"")
                + (declineCode == null ? "" : ",\"decline_code\":\"" + declineCode + "\"")
                + ",\"message\":\"refused\"}}";
    }

    static ResponseDefinitionBuilder stripeError(int status, String body) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body);
    }

    static CreatePayment deposit(String reference, String amount, String currency) {
        return CreatePayment.deposit("ord-1", new BigDecimal(amount), currency, reference, "https://shop.test/return",
                new CreatePayment.Customer("cust-1", "buyer@example.com"));
    }

    /** The deposit as the checkout hands it over: fixed at the claim first. */
    CreatePayment claimed(StripeProvider at, String reference, String amount, String currency) {
        CreatePayment request = deposit(reference, amount, currency);
        return request.withFixedRequest(at.fixRequest(request));
    }

    List<LoggedRequest> posts(String path) {
        return stripe.findAll(postRequestedFor(urlPathEqualTo(path)));
    }

    @Test
    @DisplayName("checkout: POST /v1/checkout/sessions with every parameter of the contract's row, pinned and keyed")
    void createSendsTheContractsParameters() {
        stripe.stubFor(post(SESSIONS).willReturn(okJson(session("cs_1", "chk_1", "open", "unpaid"))));

        PspPayment payment = provider.create(claimed(provider, "chk_1", "19.99", "EUR"));

        assertThat(payment.id()).isEqualTo("cs_1");
        assertThat(payment.paymentState()).isEqualTo(PaymentState.CHECKOUT);
        assertThat(payment.redirectUrl()).isEqualTo("https://checkout.stripe.com/c/pay/cs_1");
        LoggedRequest sent = posts(SESSIONS).get(0);
        assertThat(sent.getHeader("Idempotency-Key")).isEqualTo("chk_1");
        assertThat(sent.getHeader("Stripe-Version")).isEqualTo("2025-08-27.basil");
        assertThat(sent.getHeader("Authorization")).isEqualTo("Bearer sk_test_123");
        assertThat(sent.getHeader("Content-Type")).startsWith("application/x-www-form-urlencoded");
        assertThat(form(sent.getBodyAsString())).containsExactly(
                Map.entry("mode", "payment"), Map.entry("line_items[0][quantity]", "1"),
                Map.entry("line_items[0][price_data][currency]", "eur"),
                Map.entry("line_items[0][price_data][unit_amount]", "1999"),
                Map.entry("line_items[0][price_data][product_data][name]", "Order ord-1"),
                Map.entry("client_reference_id", "chk_1"), Map.entry("metadata[orderRef]", "ord-1"),
                Map.entry("metadata[attempt]", "chk_1"), Map.entry("payment_intent_data[metadata][orderRef]", "ord-1"),
                Map.entry("payment_intent_data[metadata][attempt]", "chk_1"),
                Map.entry("success_url", "https://shop.test/return"), Map.entry("cancel_url", "https://shop.test/return"),
                Map.entry("expires_at", Long.toString(START.plusSeconds(3600).getEpochSecond())),
                Map.entry("customer_email", "buyer@example.com"));
        assertThat(form(sent.getBodyAsString())).doesNotContainKey("payment_intent_data[capture_method]");
    }

    @Test
    @DisplayName("payments.stripe.capture-method=manual: the session's PaymentIntent authorizes only")
    void manualCapture() {
        stripe.stubFor(post(SESSIONS).willReturn(okJson(session("cs_1", "chk_1", "open", "unpaid"))));
        StripeProvider manual = provider(Duration.ofHours(2), CaptureMethod.MANUAL);

        manual.create(claimed(manual, "chk_1", "19.99", "EUR"));

        Map<String, String> params = form(posts(SESSIONS).get(0).getBodyAsString());
        assertThat(params).containsEntry("payment_intent_data[capture_method]", "manual")
                .containsEntry("expires_at", Long.toString(START.plusSeconds(7200).getEpochSecond()));
    }

    @ParameterizedTest(name = "{0} {1} → unit_amount {2}")
    @CsvSource({ "500, JPY, 500, jpy", "1.230, BHD, 1230, bhd", "5, ISK, 500, isk", "10.00, USD, 1000, usd",
            "500.00, MGA, 500, mga" })
    @DisplayName("money: unit_amount in Stripe's minor units by Stripe's table, currency lower case")
    void currencyRows(String amount, String currency, String minor, String lower) {
        stripe.stubFor(post(SESSIONS).willReturn(okJson(session("cs_1", "chk_1", "open", "unpaid"))));

        provider.create(claimed(provider, "chk_1", amount, currency));

        assertThat(form(posts(SESSIONS).get(0).getBodyAsString()))
                .containsEntry("line_items[0][price_data][unit_amount]", minor)
                .containsEntry("line_items[0][price_data][currency]", lower);
    }

    @Test
    @DisplayName("an amount Stripe cannot take exactly is refused before anything is sent")
    void inexactAmountIsRefusedUnsent() {
        assertThat(provider.refusesAmount(new BigDecimal("1.235"), "BHD")).isPresent();
        assertThat(provider.refusesAmount(new BigDecimal("0.49"), "USD")).isPresent();
        assertThat(provider.refusesAmount(new BigDecimal("0.50"), "USD")).isEmpty();
        assertThatThrownBy(() -> provider.create(claimed(provider, "chk_1", "1.235", "BHD")))
                .isInstanceOf(PspRejected.class);
        assertThatThrownBy(() -> provider.create(CreatePayment.refund("ord-1", new BigDecimal("1.235"), "BHD",
                "rfd_1", "pi_1"))).isInstanceOf(PspRejected.class);
        assertThat(stripe.getAllServeEvents()).isEmpty();
    }

    static Stream<Arguments> ambiguousAnswers() {
        return Stream.of(
                Arguments.of("read timeout", okJson(session("cs_1", "chk_1", "open", "unpaid"))
                        .withFixedDelay(PAST_READ_TIMEOUT_MS)),
                Arguments.of("connection reset", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)),
                Arguments.of("empty response", aResponse().withFault(Fault.EMPTY_RESPONSE)),
                Arguments.of("garbage then close", aResponse().withFault(Fault.RANDOM_DATA_THEN_CLOSE)),
                Arguments.of("500 api_error", stripeError(500, error("api_error", null, null))),
                Arguments.of("503 text/html", aResponse().withStatus(503).withHeader("Content-Type", "text/html")
                        .withBody("<h1>down</h1>")),
                Arguments.of("200 text/html from a proxy", aResponse().withStatus(200)
                        .withHeader("Content-Type", "text/html").withBody("<html>wait</html>")),
                Arguments.of("truncated JSON", aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                        .withBody("{\"id\":\"cs_1\",\"object\":\"checkout.sess")),
                Arguments.of("200 JSON that is no session", okJson("{\"object\":\"checkout.session\"}")),
                Arguments.of("200 session in a currency we cannot book", okJson(session("cs_1", "chk_1", "open",
                        "unpaid").replace("\"eur\"", "\"zzz\""))),
                Arguments.of("409 idempotency_key_in_use", stripeError(409,
                        error("invalid_request_error", "idempotency_key_in_use", null))),
                Arguments.of("400 idempotency_error", stripeError(400, error("idempotency_error", null, null))),
                Arguments.of("429 rate_limit", stripeError(429, error("invalid_request_error", "rate_limit", null))),
                Arguments.of("403 without Stripe's error object", aResponse().withStatus(403)
                        .withHeader("Content-Type", "text/html").withBody("<h1>forbidden</h1>")),
                Arguments.of("slow body past the read timeout", okJson(session("cs_1", "chk_1", "open", "unpaid"))
                        .withChunkedDribbleDelay(8, 2 * PAST_READ_TIMEOUT_MS)));
    }

    @ParameterizedTest(name = "{0} → outcome unknown, sent once")
    @MethodSource("ambiguousAnswers")
    @DisplayName("every ambiguous ending of a create is unknown, never a refusal, never sent twice")
    void ambiguousCreateIsUnknown(String fault, ResponseDefinitionBuilder answer) {
        stripe.stubFor(post(SESSIONS).willReturn(answer));

        assertThatThrownBy(() -> provider.create(claimed(provider, "chk_1", "19.99", "EUR"))).as(fault)
                .isInstanceOf(PaymentOutcomeUnknown.class);
        assertThat(posts(SESSIONS)).hasSize(1);
    }

    @ParameterizedTest(name = "{0} {1}/{2} → refused with {4}")
    @CsvSource(nullValues = "-", value = {
            "400, invalid_request_error, parameter_invalid_integer, -, parameter_invalid_integer",
            "402, card_error, card_declined, insufficient_funds, insufficient_funds",
            "401, invalid_request_error, -, -, invalid_request_error",
            "404, invalid_request_error, resource_missing, -, resource_missing" })
    @DisplayName("a confirmed 4xx with Stripe's error object is a refusal, coded by decline_code, code or type")
    void confirmedRefusal(int status, String type, String code, String declineCode, String expected) {
        stripe.stubFor(post(SESSIONS).willReturn(stripeError(status, error(type, code, declineCode))));

        assertThatThrownBy(() -> provider.create(claimed(provider, "chk_1", "19.99", "EUR")))
                .isInstanceOfSatisfying(PspRejected.class, rejected -> {
                    assertThat(rejected.status()).isEqualTo(status);
                    assertThat(rejected.errorCode()).isEqualTo(expected);
                });
    }

    @Test
    @DisplayName("reconcile replays the identical request with the same key, byte for byte, even after the config changed")
    void reconcileReplaysByteIdentical() {
        stripe.stubFor(post(SESSIONS).willReturn(stripeError(500, error("api_error", null, null))));
        CreatePayment original = claimed(provider, "chk_1", "19.99", "EUR");
        assertThatThrownBy(() -> provider.create(original)).isInstanceOf(PaymentOutcomeUnknown.class);
        clock.advance(Duration.ofMinutes(3));
        StripeProvider reconfigured = provider(Duration.ofHours(5), CaptureMethod.MANUAL);
        stripe.stubFor(post(SESSIONS).willReturn(okJson(session("cs_1", "chk_1", "open", "unpaid"))));

        Lookup lookup = reconfigured.reconcile(original);

        assertThat(lookup.provenAbsent()).isFalse();
        assertThat(lookup.payments()).extracting(PspPayment::id).containsExactly("cs_1");
        List<LoggedRequest> sent = posts(SESSIONS);
        assertThat(sent).hasSize(2);
        assertThat(sent.get(1).getBody()).isEqualTo(sent.get(0).getBody());
        assertThat(sent.get(1).getHeader("Idempotency-Key")).isEqualTo(sent.get(0).getHeader("Idempotency-Key"))
                .isEqualTo("chk_1");
        assertThat(sends.rows.get("chk_1").lastSentAt()).isEqualTo(START.plus(Duration.ofMinutes(3)));
    }

    @Test
    @DisplayName("a stored 5xx (Idempotent-Replayed) ends the replays: the sessions around the claim are listed")
    void stored5xxListsAndNeverReplaysAgain() {
        CreatePayment original = claimed(provider, "chk_1", "19.99", "EUR");
        stripe.stubFor(post(SESSIONS).willReturn(stripeError(500, error("api_error", null, null))
                .withHeader("Idempotent-Replayed", "true")));
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson(list(false,
                session("cs_other", "chk_someone_else", "open", "unpaid"), session("cs_1", "chk_1", "open", "unpaid")))));

        Lookup first = provider.reconcile(original);
        Lookup second = provider.reconcile(original);

        assertThat(first.payments()).extracting(PspPayment::id).containsExactly("cs_1");
        assertThat(second.payments()).extracting(PspPayment::id).containsExactly("cs_1");
        assertThat(posts(SESSIONS)).as("no replay after a stored 5xx").hasSize(1);
        LoggedRequest listing = stripe.findAll(getRequestedFor(urlPathEqualTo(SESSIONS))).get(0);
        assertThat(listing.queryParameter("created[gte]").firstValue())
                .isEqualTo(Long.toString(START.minusSeconds(60).getEpochSecond()));
        assertThat(listing.queryParameter("created[lte]").firstValue())
                .isEqualTo(Long.toString(START.plusSeconds(60).getEpochSecond()));
        assertThat(listing.getHeader("Stripe-Version")).isEqualTo("2025-08-27.basil");
    }

    @Test
    @DisplayName("a 409 on the replay (key still in flight) lists and proves nothing: the last send is now")
    void conflictListsWithoutProof() {
        CreatePayment original = claimed(provider, "chk_1", "19.99", "EUR");
        sends.recordSend("chk_1", START);
        clock.advance(Duration.ofMinutes(10));
        stripe.stubFor(post(SESSIONS).willReturn(stripeError(409,
                error("invalid_request_error", "idempotency_key_in_use", null))));
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson(list(false))));

        Lookup lookup = provider.reconcile(original);

        assertThat(lookup.provenAbsent()).isFalse();
        assertThat(lookup.payments()).isEmpty();
        assertThat(posts(SESSIONS)).hasSize(1);
    }

    @Test
    @DisplayName("no replay once the session is within 31 minutes of its expiry; a listing past the in-flight age that finds none proves nothing was created")
    void nothingCreatedProof() {
        CreatePayment original = claimed(provider, "chk_1", "19.99", "EUR");
        sends.recordSend("chk_1", START);
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson(list(false,
                session("cs_other", "chk_someone_else", "open", "unpaid")))));
        clock.advance(Duration.ofMinutes(29)); // expires_at is 31 min ahead: no longer replayed

        Lookup lookup = provider.reconcile(original);

        assertThat(lookup.provenAbsent()).isTrue();
        assertThat(posts(SESSIONS)).as("never sent again").isEmpty();
    }

    @Test
    @DisplayName("a listing within the in-flight age of the last send proves nothing")
    void listingTooSoonProvesNothing() {
        CreatePayment original = claimed(provider, "chk_1", "19.99", "EUR");
        sends.recordSend("chk_1", START);
        sends.closeReplay("chk_1", StripeSendStore.ReplayClosed.STORED_5XX, START);
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson(list(false))));
        clock.advance(IN_FLIGHT_AGE_MINUS_A_SECOND);

        assertThat(provider.reconcile(original).provenAbsent()).isFalse();
        clock.advance(Duration.ofSeconds(2));
        assertThat(provider.reconcile(original).provenAbsent()).isTrue();
        assertThat(posts(SESSIONS)).isEmpty();
    }

    static final Duration IN_FLIGHT_AGE_MINUS_A_SECOND = StripeTestSupport.IN_FLIGHT_AGE.minusSeconds(1);

    @Test
    @DisplayName("the listing reads every page (starting_after) before it proves anything")
    void listingIsPaged() {
        CreatePayment original = claimed(provider, "chk_1", "19.99", "EUR");
        sends.closeReplay("chk_1", StripeSendStore.ReplayClosed.STORED_5XX, START);
        sends.recordSend("chk_1", START);
        sends.closeReplay("chk_1", StripeSendStore.ReplayClosed.STORED_5XX, START);
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).atPriority(2).willReturn(okJson(list(true,
                session("cs_a", "chk_a", "open", "unpaid"), session("cs_b", "chk_b", "open", "unpaid")))));
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).atPriority(1).withQueryParam("starting_after", equalTo("cs_b"))
                .willReturn(okJson(list(false, session("cs_1", "chk_1", "complete", "paid")))));
        clock.advance(Duration.ofHours(2));

        Lookup lookup = provider.reconcile(original);

        assertThat(lookup.payments()).extracting(PspPayment::id).containsExactly("cs_1");
        assertThat(lookup.payments().get(0).paymentState()).isEqualTo(PaymentState.COMPLETED);
    }

    @Test
    @DisplayName("lookUp only lists, never creates")
    void lookUpNeverPosts() {
        CreatePayment original = claimed(provider, "chk_1", "19.99", "EUR");
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson(list(false,
                session("cs_1", "chk_1", "expired", "unpaid")))));

        List<PspPayment> found = provider.lookUp(original);

        assertThat(found).extracting(PspPayment::paymentState).containsExactly(PaymentState.CANCELLED);
        assertThat(posts(SESSIONS)).isEmpty();
    }

    @Test
    @DisplayName("an attempt without a fixed request (claimed under another provider) is never proven absent")
    void noFixedRequestNeverProvesAbsence() {
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson(list(false))));
        clock.advance(Duration.ofDays(1));

        Lookup lookup = provider.reconcile(deposit("chk_old", "19.99", "EUR"));

        assertThat(lookup.provenAbsent()).isFalse();
        assertThat(stripe.getAllServeEvents()).isEmpty();
    }

    static String refund(String id, String reference, String status) {
        return """
                {"id":"%s","object":"refund","status":"%s","amount":500,"currency":"eur","payment_intent":"pi_1",
                 "metadata":{"refundKey":"k-1","referenceId":"%s"}}
                """.formatted(id, status, reference);
    }

    @Test
    @DisplayName("refund: POST /v1/refunds with the PaymentIntent, minor amount, metadata and the refund's key")
    void refundCreate() {
        stripe.stubFor(post("/v1/refunds").willReturn(okJson(refund("re_1", "rfd_1", "pending"))));

        PspPayment payment = provider.create(CreatePayment.refund("ord-1", new BigDecimal("5.00"), "EUR", "rfd_1",
                "pi_1", "k-1"));

        assertThat(payment.id()).isEqualTo("re_1");
        assertThat(payment.paymentState()).isEqualTo(PaymentState.PENDING);
        LoggedRequest sent = posts("/v1/refunds").get(0);
        assertThat(sent.getHeader("Idempotency-Key")).isEqualTo("rfd_1");
        assertThat(form(sent.getBodyAsString())).containsExactly(Map.entry("payment_intent", "pi_1"),
                Map.entry("amount", "500"), Map.entry("metadata[refundKey]", "k-1"),
                Map.entry("metadata[referenceId]", "rfd_1"));
    }

    @Test
    @DisplayName("refund reconcile: the identical POST with its key inside the key window; past it, the PaymentIntent's refunds by metadata[referenceId]")
    void refundReconcile() {
        CreatePayment original = CreatePayment.refund("ord-1", new BigDecimal("5.00"), "EUR", "rfd_1", "pi_1", "k-1");
        stripe.stubFor(post("/v1/refunds").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertThatThrownBy(() -> provider.create(original)).isInstanceOf(PaymentOutcomeUnknown.class);
        stripe.stubFor(post("/v1/refunds").willReturn(okJson(refund("re_1", "rfd_1", "succeeded"))));

        assertThat(provider.reconcile(original).payments()).extracting(PspPayment::id).containsExactly("re_1");
        List<LoggedRequest> sent = posts("/v1/refunds");
        assertThat(sent.get(1).getBody()).isEqualTo(sent.get(0).getBody());

        clock.advance(Duration.ofHours(24));
        stripe.stubFor(get(urlPathEqualTo("/v1/refunds")).withQueryParam("payment_intent", equalTo("pi_1"))
                .willReturn(okJson(list(false, refund("re_0", "rfd_other", "succeeded"),
                        refund("re_1", "rfd_1", "succeeded")))));
        Lookup late = provider.reconcile(original);
        assertThat(late.payments()).extracting(PspPayment::id).containsExactly("re_1");
        assertThat(late.provenAbsent()).isFalse();
        assertThat(posts("/v1/refunds")).as("no replay past the key window").hasSize(2);
    }

    static Stream<Arguments> replayAnswers() {
        return Stream.of(
                Arguments.of("400 invalid_request_error", stripeError(400, error("invalid_request_error",
                        "amount_too_large", null)), "amount_too_large"),
                Arguments.of("402 card_error", stripeError(402, error("card_error", "card_declined", "do_not_honor")),
                        "do_not_honor"),
                Arguments.of("400 idempotency_error", stripeError(400, error("idempotency_error", null, null)), null),
                Arguments.of("409 key in use", stripeError(409, error("invalid_request_error",
                        "idempotency_key_in_use", null)), null),
                Arguments.of("429 rate limited", stripeError(429, error("invalid_request_error", "rate_limit", null)),
                        null),
                Arguments.of("503 before executing", stripeError(503, error("api_error", null, null)), null),
                Arguments.of("400 without Stripe's error object", aResponse().withStatus(400)
                        .withHeader("Content-Type", "text/html").withBody("<html>bad</html>"), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("replayAnswers")
    @DisplayName("a replay answered with a confirmed refusal is a refusal; a key's trouble, a 429 or a 5xx never is")
    void replayRefusalIsARefusal(String name, ResponseDefinitionBuilder answer, String refusedWith) {
        CreatePayment session = claimed(provider, "chk_1", "19.99", "EUR");
        CreatePayment refund = CreatePayment.refund("ord-1", new BigDecimal("5.00"), "EUR", "rfd_1", "pi_1", "k-1");
        stripe.stubFor(post(SESSIONS).willReturn(answer));
        stripe.stubFor(post("/v1/refunds").willReturn(answer));
        stripe.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson(list(false))));
        stripe.stubFor(get(urlPathEqualTo("/v1/refunds")).willReturn(okJson(list(false))));

        for (Lookup lookup : List.of(provider.reconcile(session), provider.reconcile(refund))) {
            if (refusedWith == null) {
                assertThat(lookup.refusal()).isNull();
            } else {
                assertThat(lookup.refusal()).isNotNull();
                assertThat(lookup.refusal().errorCode()).isEqualTo(refusedWith);
                assertThat(lookup.provenAbsent()).isFalse();
            }
        }
    }

    @Test
    @DisplayName("lookUp only reads: a refund by its PaymentIntent's listing, matched by metadata[referenceId]; never a POST")
    void refundLookUpNeverPosts() {
        CreatePayment refund = CreatePayment.refund("ord-1", new BigDecimal("5.00"), "EUR", "rfd_1", "pi_1", "k-1");
        stripe.stubFor(get(urlPathEqualTo("/v1/refunds")).withQueryParam("payment_intent", equalTo("pi_1"))
                .willReturn(okJson(list(false, refund("re_0", "rfd_other", "succeeded")))));

        assertThat(provider.lookUp(refund)).isEmpty();
        assertThat(posts("/v1/refunds")).isEmpty();
    }

    @Test
    @DisplayName("the pull path: get by prefix (cs_ with its PaymentIntent expanded, pi_, re_); 404 is empty, 5xx unknown")
    void getByPrefix() {
        stripe.stubFor(get(urlPathEqualTo("/v1/checkout/sessions/cs_1")).withQueryParam("expand[]",
                equalTo("payment_intent")).willReturn(okJson(session("cs_1", "chk_1", "complete", "paid")
                        .replace("\"payment_intent\":null", "\"payment_intent\":{\"id\":\"pi_1\",\"object\":\"payment_intent\",\"status\":\"succeeded\"}"))));
        stripe.stubFor(get("/v1/payment_intents/pi_2").willReturn(okJson("""
                {"id":"pi_2","object":"payment_intent","status":"requires_capture","amount":1999,"amount_capturable":1999,
                 "currency":"eur","metadata":{"attempt":"chk_2"}}""")));
        stripe.stubFor(get("/v1/refunds/re_1").willReturn(okJson(refund("re_1", "rfd_1", "failed"))));
        stripe.stubFor(get("/v1/refunds/re_404").willReturn(stripeError(404,
                error("invalid_request_error", "resource_missing", null))));
        stripe.stubFor(get("/v1/refunds/re_500").willReturn(stripeError(500, error("api_error", null, null))));

        assertThat(provider.get("cs_1")).get().satisfies(p -> {
            assertThat(p.id()).isEqualTo("pi_1");
            assertThat(p.paymentState()).isEqualTo(PaymentState.COMPLETED);
        });
        assertThat(provider.get("pi_2")).get().extracting(PspPayment::paymentState).isEqualTo(PaymentState.AUTHORIZED);
        assertThat(provider.get("re_1")).get().extracting(PspPayment::paymentState).isEqualTo(PaymentState.DECLINED);
        assertThat(provider.get("re_404")).isEmpty();
        assertThatThrownBy(() -> provider.get("re_500")).isInstanceOf(PaymentOutcomeUnknown.class);
    }

    @Test
    @DisplayName("capture and void act on the PaymentIntent, keyed by the operation's reference; a full capture sends amount_to_capture too")
    void captureAndVoid() {
        String intent = """
                {"id":"pi_1","object":"payment_intent","status":"%s","amount":1999,"amount_received":%s,
                 "currency":"eur","metadata":{"attempt":"chk_1"}}""";
        stripe.stubFor(get("/v1/payment_intents/pi_1").willReturn(okJson("""
                {"id":"pi_1","object":"payment_intent","status":"requires_capture","amount":1999,"amount_capturable":1999,
                 "currency":"eur","metadata":{"attempt":"chk_1"}}""")));
        stripe.stubFor(post("/v1/payment_intents/pi_1/capture").willReturn(okJson(intent.formatted("succeeded", 1999))));
        stripe.stubFor(post("/v1/payment_intents/pi_1/cancel").willReturn(okJson(intent.formatted("canceled", 0))));

        assertThat(provider.capture("pi_1", null, "cap_1").paymentState()).isEqualTo(PaymentState.COMPLETED);
        assertThat(provider.voidPayment("pi_1", "void_1").paymentState()).isEqualTo(PaymentState.CANCELLED);
        assertThat(posts("/v1/payment_intents/pi_1/capture").get(0).getHeader("Idempotency-Key")).isEqualTo("cap_1");
        assertThat(form(posts("/v1/payment_intents/pi_1/capture").get(0).getBodyAsString()))
                .as("a full capture names its amount, in Stripe's minor units").containsEntry("amount_to_capture", "1999");
        assertThat(posts("/v1/payment_intents/pi_1/cancel").get(0).getHeader("Idempotency-Key")).isEqualTo("void_1");
        stripe.stubFor(post("/v1/payment_intents/pi_1/capture").willReturn(stripeError(409,
                error("invalid_request_error", "idempotency_key_in_use", null))));
        assertThatThrownBy(() -> provider.capture("pi_1", null, "cap_1")).isInstanceOf(PaymentOutcomeUnknown.class);
    }
}
