package com.acme.payments.psp.stripe;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.psp.PaymentProvider;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.Shop;
import com.acme.payments.sweep.Polls;
import com.acme.payments.sweep.Sweeps;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

/**
 * The checkout flow with {@code PSP_PROVIDER=stripe} against a WireMock Stripe: the session's parameters are
 * fixed at the claim and stored with the attempt, an ambiguous create is replayed byte for byte under the same
 * key, and a listing past the in-flight age that finds nothing closes the attempt FAILED not_created; the
 * sweep resolves an UNKNOWN attempt by that replay, two instances' passes on one attempt send it once, the
 * straggler poll books a paid session whose webhook was lost, and an amount Stripe cannot charge is refused
 * at order creation.
 */
@TestPropertySource(properties = { "payments.psp.provider=stripe", "stripe.api-key=sk_test_it" })
class StripeCheckoutIntegrationTests extends IntegrationTest {

    static final String SESSIONS = "/v1/checkout/sessions";

    @DynamicPropertySource
    static void stripeBase(DynamicPropertyRegistry registry) {
        registry.add("stripe.api-base", PspStub::baseUrl);
    }

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PaymentProvider provider;

    @Autowired
    Sweeps sweeps;

    @Autowired
    Polls polls;

    static String session(String id, String reference, String status) {
        return """
                {"id":"%s","object":"checkout.session","status":"%s","payment_status":"unpaid","payment_intent":null,
                 "client_reference_id":"%s","amount_total":1250,"currency":"eur",
                 "url":"https://checkout.stripe.com/c/pay/%s","metadata":{"attempt":"%s"}}
                """.formatted(id, status, reference, id, reference);
    }

    @Test
    @DisplayName("PSP_PROVIDER=stripe: a checkout is a Checkout Session whose every parameter was fixed at the claim")
    void checkoutCreatesASession() {
        assertThat(provider).isInstanceOf(StripeProvider.class);
        Shop shop = new Shop(http());
        var order = shop.createOrder("12.50", "EUR");
        psp.stubFor(post(SESSIONS).willReturn(okJson(session("cs_it_1", "ref", "open"))));

        Response response = shop.checkout(order.orderRef());

        assertThat(response.status()).as(response.body()).isBetween(200, 201);
        assertThat(response.json().path("redirectUrl").asString()).isEqualTo("https://checkout.stripe.com/c/pay/cs_it_1");
        LoggedRequest sent = psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS))).get(0);
        Map<String, Object> row = attempt(order.orderRef());
        String reference = (String) row.get("reference_id");
        assertThat(sent.getHeader("Idempotency-Key")).isEqualTo(reference);
        assertThat(sent.getHeader("Stripe-Version")).isEqualTo(StripeObjects.API_VERSION);
        Map<String, String> form = StripeTestSupport.form(sent.getBodyAsString());
        assertThat(form).containsEntry("client_reference_id", reference)
                .containsEntry("line_items[0][price_data][unit_amount]", "1250")
                .containsEntry("metadata[orderRef]", order.orderRef())
                .containsEntry("success_url", "https://shop.test/thank-you")
                .containsEntry("customer_email", "a@b.test");
        assertThat(row.get("psp_request")).as("stored with the attempt").asString()
                .contains(sent.getBodyAsString().replace("\"", "\\\""));
        long expiresAt = Long.parseLong(form.get("expires_at"));
        Instant created = ((java.sql.Timestamp) row.get("created_at")).toInstant();
        assertThat(expiresAt - created.getEpochSecond()).isBetween(3590L, 3610L);
        assertThat(jdbc.sql("SELECT sends FROM stripe_psp_send WHERE reference_id = :r").param("r", reference)
                .query(Integer.class).single()).isEqualTo(1);
    }

    @Test
    @DisplayName("an ambiguous create is UNKNOWN; the next look replays the identical request with the same key")
    void ambiguousCreateIsReplayedIdentically() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("12.50", "EUR");
        psp.stubFor(post(SESSIONS).willReturn(aResponse().withStatus(500)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":{\"type\":\"api_error\"}}")));
        psp.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson("{\"object\":\"list\",\"has_more\":false,\"data\":[]}")));

        Response first = shop.checkout(order.orderRef());

        assertThat(first.status()).as(first.body()).isEqualTo(409);
        assertThat(first.problemSlug()).isEqualTo("payment-outcome-unknown");
        assertThat(attempt(order.orderRef()).get("state")).isEqualTo("UNKNOWN");

        psp.stubFor(post(SESSIONS).willReturn(okJson(session("cs_it_2", "ref", "open"))));
        Response second = shop.checkout(order.orderRef());

        assertThat(second.status()).as(second.body()).isBetween(200, 201);
        assertThat(attempt(order.orderRef()).get("state")).isEqualTo("READY");
        List<LoggedRequest> sent = psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS)));
        assertThat(sent).hasSizeGreaterThanOrEqualTo(3); // the create, the replay at once, the replay now
        sent.forEach(request -> {
            assertThat(request.getBody()).isEqualTo(sent.get(0).getBody());
            assertThat(request.getHeader("Idempotency-Key")).isEqualTo(sent.get(0).getHeader("Idempotency-Key"));
        });
    }

    @Test
    @DisplayName("no replay left and a listing past the in-flight age that finds none: FAILED not_created, the order payable")
    void nothingCreatedClosesTheAttempt() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("12.50", "EUR");
        psp.stubFor(post(SESSIONS).willReturn(aResponse().withStatus(500).withHeader("Idempotent-Replayed", "true")
                .withHeader("Content-Type", "application/json").withBody("{\"error\":{\"type\":\"api_error\"}}")));
        psp.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson("{\"object\":\"list\",\"has_more\":false,"
                + "\"data\":[" + session("cs_someone", "chk_someone_else", "open") + "]}")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(409);
        String reference = (String) attempt(order.orderRef()).get("reference_id");
        assertThat(jdbc.sql("SELECT replay_closed_why FROM stripe_psp_send WHERE reference_id = :r")
                .param("r", reference).query(String.class).single()).isEqualTo("stored_5xx");
        // the claim and the last send were longer ago than payments.sweep.in-flight-age (5m in the test profile)
        jdbc.sql("UPDATE stripe_psp_send SET last_sent_at = last_sent_at - interval '6 minutes' WHERE reference_id = :r")
                .param("r", reference).update();
        jdbc.sql("""
                UPDATE psp_attempt SET psp_request = (psp_request::jsonb
                       || jsonb_build_object('claimedAt', (psp_request::jsonb ->> 'claimedAt')::bigint - 360))::text
                 WHERE reference_id = :r""").param("r", reference).update();
        int posts = psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS))).size();

        Response again = shop.checkout(order.orderRef());

        Map<String, Object> row = attempt(order.orderRef());
        assertThat(row.get("state")).as(again.body()).isEqualTo("FAILED");
        assertThat(row.get("failure_reason")).isEqualTo("not_created");
        assertThat(psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS)))).as("never replayed after a stored 5xx")
                .hasSize(posts);
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isNotEqualTo("PAID");
    }

    Map<String, Object> attempt(String orderRef) {
        return jdbc.sql("""
                SELECT a.* FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref
                 ORDER BY a.id DESC LIMIT 1""").param("ref", orderRef).query().singleRow();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({ "0.49, EUR", "0.29, GBP", "49, JPY", "1.005, BHD" })
    @DisplayName("PSP_PROVIDER=stripe: POST /api/orders refuses an amount Stripe cannot take exactly or below its minimum charge with 422 amount-not-supported, storing nothing")
    void anAmountStripeCannotChargeIsRefusedAtOrderCreation(String amount, String currency) {
        String orderRef = Shop.newOrderRef();

        Response refused = http().bearer(Shop.SHOP_KEY).post("/api/orders", """
                {"orderRef":"%s","amount":"%s","currency":"%s","customer":{"referenceId":"cust-1"}}"""
                .formatted(orderRef, amount, currency));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.problemSlug()).isEqualTo("amount-not-supported");
        assertThat(refused.json().path("detail").asString()).contains(amount).contains(currency);
        assertThat(jdbc.sql("SELECT count(*) FROM orders WHERE order_ref = :r").param("r", orderRef)
                .query(Long.class).single()).as("no order stored").isZero();
        // the smallest amount Stripe takes in the same currency is an order like any other
        Response accepted = http().bearer(Shop.SHOP_KEY).post("/api/orders", """
                {"orderRef":"%s","amount":"%s","currency":"%s","customer":{"referenceId":"cust-1"}}"""
                .formatted(Shop.newOrderRef(), StripeMoney.MINIMUM_CHARGE.getOrDefault(currency, new BigDecimal("1.010"))
                        .toPlainString(), currency));
        assertThat(accepted.status()).as(accepted.body()).isEqualTo(201);
    }

    /** A checkout whose create ended ambiguously (a 500 Stripe did not mark replayed): the attempt UNKNOWN. */
    String unknownAttempt(Shop shop, String orderRef) {
        psp.stubFor(post(SESSIONS).willReturn(aResponse().withStatus(500)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":{\"type\":\"api_error\"}}")));
        psp.stubFor(get(urlPathEqualTo(SESSIONS)).willReturn(okJson("{\"object\":\"list\",\"has_more\":false,\"data\":[]}")));
        assertThat(shop.checkout(orderRef).status()).isEqualTo(409);
        Map<String, Object> row = attempt(orderRef);
        assertThat(row.get("state")).isEqualTo("UNKNOWN");
        return (String) row.get("reference_id");
    }

    /** Past the sweep's lease, as if the last pass that looked at it were that long ago. */
    void dueForTheSweep(String reference) {
        jdbc.sql("UPDATE psp_attempt SET updated_at = updated_at - interval '10 minutes' WHERE reference_id = :r")
                .param("r", reference).update();
    }

    @Test
    @DisplayName("PSP_PROVIDER=stripe: the sweep resolves an UNKNOWN attempt by the identical request under its key, never a new one")
    void theSweepResolvesAnUnknownAttemptAtStripe() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("12.50", "EUR");
        String reference = unknownAttempt(shop, order.orderRef());
        dueForTheSweep(reference);
        String sessionId = "cs_sweep_" + System.nanoTime();
        psp.stubFor(post(SESSIONS).willReturn(okJson(session(sessionId, reference, "open"))));
        int posts = psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS))).size();

        sweeps.run("checkout");

        Map<String, Object> row = attempt(order.orderRef());
        assertThat(row.get("state")).isEqualTo("READY");
        assertThat(row.get("psp_payment_id")).isEqualTo(sessionId);
        List<LoggedRequest> sent = psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS)));
        assertThat(sent).as("one replay by the sweep").hasSize(posts + 1);
        sent.forEach(request -> {
            assertThat(request.getHeader("Idempotency-Key")).isEqualTo(reference);
            assertThat(request.getBody()).isEqualTo(sent.get(0).getBody());
        });
        Response view = shop.order(order.orderRef());
        assertThat(view.json().path("status").asString()).isEqualTo("PROCESSING");
        assertThat(view.json().path("pspPaymentId").asString()).isEqualTo(sessionId);
    }

    @Test
    @DisplayName("PSP_PROVIDER=stripe: two instances' sweeps on one UNKNOWN attempt at once: one replay to Stripe, one outcome")
    void twoSweepsOnOneAttemptReplayOnceAtStripe() throws Exception {
        Shop shop = new Shop(http());
        var order = shop.createOrder("12.50", "EUR");
        String reference = unknownAttempt(shop, order.orderRef());
        dueForTheSweep(reference);
        String sessionId = "cs_race_" + System.nanoTime();
        // Stripe answers slowly: the first pass is inside its call while the second one claims
        psp.stubFor(post(SESSIONS).willReturn(okJson(session(sessionId, reference, "open")).withFixedDelay(2_000)));
        int posts = psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS))).size();
        long version = ((Number) attempt(order.orderRef()).get("lease_version")).longValue();

        // each pass on its own thread with its own connection, as two instances' scheduled turns
        ExecutorService instances = Executors.newFixedThreadPool(1);
        try {
            Future<?> first = instances.submit(() -> sweeps.run("checkout"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS))).size() == posts
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS)))).as("the first pass is calling Stripe")
                    .hasSize(posts + 1);
            sweeps.run("checkout"); // the second pass, while the first waits for Stripe's answer
            first.get(60, TimeUnit.SECONDS);
        } finally {
            instances.shutdownNow();
        }

        Map<String, Object> row = attempt(order.orderRef());
        assertThat(psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS)))).as("replays sent to Stripe")
                .hasSize(posts + 1);
        assertThat(row.get("state")).isEqualTo("READY");
        assertThat(row.get("psp_payment_id")).isEqualTo(sessionId);
        assertThat(((Number) row.get("lease_version")).longValue()).as("claimed once").isEqualTo(version + 1);
        assertThat(jdbc.sql("SELECT count(*) FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref")
                .param("ref", order.orderRef()).query(Long.class).single()).as("attempts of the order").isEqualTo(1);
    }

    @Test
    @DisplayName("PSP_PROVIDER=stripe: the straggler poll reads a session left PROCESSING past the grace and books it paid")
    void theStragglerPollBooksAPaidSessionAtStripe() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("12.50", "EUR");
        String sessionId = "cs_straggler_" + System.nanoTime();
        psp.stubFor(post(SESSIONS).willReturn(okJson(session(sessionId, "ref", "open"))));
        assertThat(shop.checkout(order.orderRef()).status()).isBetween(200, 201);
        String reference = (String) attempt(order.orderRef()).get("reference_id");
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("PROCESSING");
        // its webhook was lost; the order has been PROCESSING for an hour
        jdbc.sql("UPDATE orders SET updated_at = updated_at - interval '1 hour' WHERE order_ref = :ref")
                .param("ref", order.orderRef()).update();
        String intentId = "pi_straggler_" + System.nanoTime();
        psp.stubFor(get(urlPathEqualTo(SESSIONS + "/" + sessionId)).willReturn(okJson(StripePaymentEvents.session(
                sessionId, intentId, reference, order.orderRef(), "complete", "paid", 1250))));
        psp.stubFor(get(urlPathEqualTo("/v1/payment_intents/" + intentId)).willReturn(okJson(
                StripePaymentEvents.paymentIntent(intentId, reference, order.orderRef(), "succeeded", 1250,
                        "automatic_async"))));

        polls.run("straggler-poll");

        Response view = shop.order(order.orderRef());
        assertThat(view.json().path("status").asString()).as(view.body()).isEqualTo("PAID");
        assertThat(view.json().path("paidAmount").asString()).isEqualTo("12.50");
        assertThat(view.json().path("pspPaymentId").asString()).isEqualTo(intentId);
        assertThat(psp.findAll(postRequestedFor(urlPathEqualTo(SESSIONS)))).as("the poll only reads").hasSize(1);
    }
}
