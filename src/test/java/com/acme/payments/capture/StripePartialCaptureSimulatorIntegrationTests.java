package com.acme.payments.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Shop;
import com.acme.payments.support.SimulatorStack;

import tools.jackson.databind.JsonNode;

/**
 * {@link PartialCaptureContract} with {@code PSP_PROVIDER=stripe} and {@code payments.stripe.capture-method=manual}:
 * the simulator's Stripe surface as Stripe; the session is paid through its hook, which leaves the
 * PaymentIntent {@code requires_capture} and announces it ({@code payment_intent.amount_capturable_updated}).
 */
class StripePartialCaptureSimulatorIntegrationTests implements PartialCaptureContract {

    private static final String SIM_ADMIN = "sim-admin";

    private static SimulatorStack stack;
    private static Http sim;
    private static Http api;
    private static JdbcClient jdbc;

    @BeforeAll
    static void start() {
        stack = SimulatorStack.start(SIM_ADMIN, serviceUrl -> Map.of(
                "pspsim.stripe.api-key", "sk_test_key",
                "pspsim.stripe.webhook-secret", "whsec_test_secret",
                "pspsim.stripe.webhook-url", serviceUrl + "/webhooks/stripe",
                "pspsim.stripe.webhook-retry-delays", "200ms,500ms,1s"),
                (serviceUrl, simulatorUrl) -> Map.of(
                        "payments.psp.provider", "stripe",
                        "payments.stripe.capture-method", "manual",
                        "stripe.api-base", simulatorUrl));
        sim = stack.sim();
        api = stack.api();
        jdbc = stack.jdbc();
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Override
    public Http api() {
        return api;
    }

    @Override
    public String authorizedOrder(String amount) {
        String orderRef = new Shop(api).createOrder(amount, "EUR").orderRef();
        Response checkout = new Shop(api).checkout(orderRef);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String session = jdbc.sql("SELECT psp_payment_id FROM orders WHERE order_ref = :r").param("r", orderRef)
                .query(String.class).single();
        Response paid = sim.post("/sim/stripe/sessions/" + session + "/complete", "{\"outcome\":\"pay\"}");
        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> "AUTHORIZED".equals(status(orderRef)));
        return orderRef;
    }

    /** {@code amount_received} of the order's PaymentIntent, in Stripe's minor units of EUR. */
    @Override
    public BigDecimal capturedAtPsp(String orderRef) {
        String intent = jdbc.sql("SELECT psp_payment_id FROM orders WHERE order_ref = :r").param("r", orderRef)
                .query(String.class).single();
        for (JsonNode pi : sim.get("/sim/stripe/payment_intents").json()) {
            if (intent.equals(pi.path("id").asString())) {
                assertThat(pi.path("status").asString()).isEqualTo("succeeded");
                assertThat(pi.path("amount_capturable").asLong()).as("nothing left held").isZero();
                return BigDecimal.valueOf(pi.path("amount_received").asLong(), 2);
            }
        }
        throw new AssertionError("no PaymentIntent " + intent + " at the simulator");
    }
}
