package com.acme.payments.capture;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.pspsim.PspSimulatorApplication;

import tools.jackson.databind.JsonNode;

/**
 * {@link PartialCaptureContract} with the PSP Gateway (the default provider) as the running simulator: the
 * base class's PSP address passes every call through to it; the order is authorized on its hosted page.
 */
class GatewayPartialCaptureSimulatorIntegrationTests extends IntegrationTest implements PartialCaptureContract {

    private static final String ADMIN_TOKEN = "gateway-sim-admin";
    private static ConfigurableApplicationContext simulator;
    private static Http sim;
    private static String simulatorUrl;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void proxyToSimulator() {
        if (simulator == null) {
            simulator = PspSimulatorApplication.start(0, Map.of("pspsim.api-key", "test-psp-key",
                    "pspsim.signing-key", "test-signing-key", "pspsim.signature-encoding", "hex",
                    "pspsim.admin-token", ADMIN_TOKEN));
            simulatorUrl = "http://localhost:" + simulator.getEnvironment().getProperty("local.server.port");
            sim = new Http(simulatorUrl).bearer(ADMIN_TOKEN);
        }
        psp.stubFor(any(anyUrl()).willReturn(aResponse().proxiedFrom(simulatorUrl)));
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
            simulator = null;
        }
    }

    @Override
    public Http api() {
        return http();
    }

    @Override
    public String authorizedOrder(String amount) {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder(amount, "EUR").orderRef();
        Response checkout = shop.checkout(orderRef);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        Response authorized = sim.post("/hosted/" + paymentOf(orderRef) + "/authorize", "");
        assertThat(authorized.status()).as(authorized.body()).isLessThan(400);
        Response back = http().bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef + "/return");
        assertThat(back.json().path("status").asString()).as(back.body()).isEqualTo("AUTHORIZED");
        return orderRef;
    }

    @Override
    public BigDecimal capturedAtPsp(String orderRef) {
        String payment = paymentOf(orderRef);
        for (JsonNode p : sim.get("/sim/payments").json().path("payments")) {
            if (payment.equals(p.path("id").asString())) {
                assertThat(p.path("state").asString()).isEqualTo("COMPLETED");
                return new BigDecimal(p.path("amount").asString());
            }
        }
        throw new AssertionError("no payment " + payment + " at the simulator");
    }

    private String paymentOf(String orderRef) {
        return jdbc.sql("""
                SELECT a.psp_payment_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref ORDER BY a.id DESC LIMIT 1""").param("ref", orderRef).query(String.class)
                .single();
    }
}
