package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.PAST_READ_TIMEOUT_MS;
import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.createCount;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;

/**
 * What each way a PSP create call can go wrong leaves behind. Only a real 4xx is a known refusal;
 * everything else is an unknown outcome: the attempt ends UNKNOWN (never IN_FLIGHT), is reconciled by
 * reference at once, and the PSP is never POSTed twice. The test profile's read timeout is 4 s.
 */
class PspFaultMatrixIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    static Stream<Arguments> ambiguousAnswers() {
        return Stream.of(
                Arguments.of("read timeout", okJson(envelope(payment("p", null, "DEPOSIT", "CHECKOUT", "1.00", "EUR")))
                        .withFixedDelay(PAST_READ_TIMEOUT_MS)),
                Arguments.of("connection reset", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)),
                Arguments.of("empty response", aResponse().withFault(Fault.EMPTY_RESPONSE)),
                Arguments.of("garbage then close", aResponse().withFault(Fault.RANDOM_DATA_THEN_CLOSE)),
                Arguments.of("500", aResponse().withStatus(500).withBody("{\"error\":\"internal\"}")),
                Arguments.of("503", aResponse().withStatus(503).withHeader("Content-Type", "text/html").withBody("<h1>down</h1>")),
                Arguments.of("200 text/html from a proxy", aResponse().withStatus(200)
                        .withHeader("Content-Type", "text/html").withBody("<html><body>Please wait…</body></html>")),
                Arguments.of("truncated JSON", aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                        .withBody("{\"timestamp\":\"2026-11-29T10:00:00Z\",\"status\":200,\"result\":{\"id\":\"p1\",\"sta")),
                Arguments.of("200 JSON without a result", okJson("{\"status\":200}")),
                Arguments.of("slow body past the read timeout", okJson(envelope(payment("p", null, "DEPOSIT", "CHECKOUT",
                        "1.00", "EUR"))).withChunkedDribbleDelay(8, 2 * PAST_READ_TIMEOUT_MS)));
    }

    @ParameterizedTest(name = "{0} ends UNKNOWN, reconciled, never re-POSTed")
    @MethodSource("ambiguousAnswers")
    void ambiguousAnswerEndsUnknown(String fault, ResponseDefinitionBuilder answer) {
        Shop shop = new Shop(http());
        var order = shop.createOrder("1.00", "EUR");
        psp.stubFor(createCall().willReturn(answer));
        psp.stubFor(findCall().willReturn(nothingFound()));

        Response response = shop.checkout(order.orderRef());

        assertThat(response.status()).as(fault + ": " + response.body()).isEqualTo(409);
        assertThat(response.problemSlug()).isEqualTo("payment-outcome-unknown");
        assertThat(response.header("Retry-After")).isNotBlank();
        assertThat(attemptState(order.orderRef())).isEqualTo("UNKNOWN");
        assertThat(createCount(psp)).isEqualTo(1);
        psp.verify(1, com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(
                com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo("/api/v1/payments")));
    }

    @ParameterizedTest(name = "confirmed {0} ends FAILED and answers 502 psp-rejected")
    @org.junit.jupiter.params.provider.ValueSource(ints = { 400, 401, 404, 409, 422 })
    void confirmed4xxEndsFailed(int status) {
        Shop shop = new Shop(http());
        var order = shop.createOrder("1.00", "EUR");
        psp.stubFor(createCall().willReturn(aResponse().withStatus(status).withBody("not even json")));

        Response response = shop.checkout(order.orderRef());

        assertThat(response.status()).isEqualTo(502);
        assertThat(response.problemSlug()).isEqualTo("psp-rejected");
        assertThat(attemptState(order.orderRef())).isEqualTo("FAILED");
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).isEqualTo("AWAITING_PAYMENT");
    }

    @Test
    @DisplayName("a POST that dies with an unclassified exception ends UNKNOWN, never wedged IN_FLIGHT")
    void unclassifiedExceptionEndsUnknownNeverInFlight() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("1.00", "EUR");
        // The PSP accepted the payment, but storing its answer trips over the database: an exception no
        // catch list names. Every value of a PSP answer is checked before any statement now (a currency
        // that does not fit the column is a payload fault, below), so the test adds a constraint of its own.
        jdbc.sql("ALTER TABLE psp_attempt ADD CONSTRAINT test_no_odd_redirect CHECK (redirect_url NOT LIKE '%/pay-odd-%') NOT VALID")
                .update();
        try {
            psp.stubFor(createCall().willReturn(okJson(envelope(payment("pay-odd-" + order.orderRef(), null, "DEPOSIT",
                    "PENDING", "1.00", "EUR")))));

            Response response = shop.checkout(order.orderRef());

            assertThat(response.status()).isEqualTo(500);
            assertThat(response.body()).doesNotContain("SQL", "Exception", "redirect_url", "test_no_odd_redirect");
            assertThat(attemptState(order.orderRef())).isEqualTo("UNKNOWN");
            assertThat(createCount(psp)).isEqualTo(1);
        } finally {
            jdbc.sql("ALTER TABLE psp_attempt DROP CONSTRAINT test_no_odd_redirect").update();
        }
    }

    @Test
    @DisplayName("a create answer holding a value we cannot book (currency EURO) ends UNKNOWN, answered payment-outcome-unknown, never 500")
    void createAnswerWithAPayloadFaultEndsUnknown() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("1.00", "EUR");
        psp.stubFor(createCall().willReturn(okJson(envelope(payment("pay-euro-" + order.orderRef(), null, "DEPOSIT",
                "COMPLETED", "1.00", "EURO")))));

        Response response = shop.checkout(order.orderRef());

        assertThat(response.status()).as(response.body()).isEqualTo(409);
        assertThat(response.problemSlug()).isEqualTo("payment-outcome-unknown");
        assertThat(attemptState(order.orderRef())).isEqualTo("UNKNOWN");
        assertThat(shop.order(order.orderRef()).json().path("status").asString()).as("untouched")
                .isEqualTo("AWAITING_PAYMENT");
        assertThat(createCount(psp)).isEqualTo(1);
    }

    String attemptState(String orderRef) {
        return jdbc.sql("""
                SELECT a.state FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref""")
                .param("ref", orderRef).query(String.class).single();
    }
}
