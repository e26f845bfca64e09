package com.acme.payments.support;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.springframework.test.context.DynamicPropertyRegistry;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shop's events endpoint, played by the shared WireMock under {@value #PATH}: the settings that point the
 * service at it (its secret mid-roll: new, old), its answers, and what it received, in arrival order.
 */
public final class ShopEventReceiver {

    public static final String PATH = "/shop-events";
    public static final String NEW_SECRET = secret("shop-events-new-key-0123456789ab");
    public static final String OLD_SECRET = secret("shop-events-old-key-0123456789ab");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ShopEventReceiver() {
    }

    private static String secret(String key) {
        return "whsec_" + Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.US_ASCII));
    }

    /** SHOP_EVENTS_URL and SHOP_EVENTS_SECRET="new,old" (rolling). */
    public static void register(DynamicPropertyRegistry registry) {
        registry.add("payments.outbox.sinks.shop-events-url", () -> PspStub.baseUrl() + PATH);
        registry.add("payments.outbox.sinks.shop-events-secret", () -> NEW_SECRET + "," + OLD_SECRET);
    }

    public static StubMapping accepting(WireMockServer server) {
        return server.stubFor(post(urlEqualTo(PATH)).atPriority(10).willReturn(aResponse().withStatus(204)));
    }

    public static StubMapping down(WireMockServer server) {
        return server.stubFor(post(urlEqualTo(PATH)).atPriority(1).willReturn(aResponse().withStatus(503)));
    }

    /** Every delivery the endpoint saw, answered or not, oldest first. */
    public static List<Delivery> received(WireMockServer server) {
        List<Delivery> deliveries = new ArrayList<>();
        for (LoggedRequest request : server.findAll(postRequestedFor(urlEqualTo(PATH)))) {
            deliveries.add(new Delivery(request.getHeader("webhook-id"), request.getHeader("webhook-timestamp"),
                    request.getHeader("webhook-signature"), request.getBody(), JSON.readTree(request.getBody()),
                    request));
        }
        return deliveries;
    }

    /** One POST to the endpoint. */
    public record Delivery(String id, String timestamp, String signature, byte[] body, JsonNode json,
            LoggedRequest request) {

        public String type() {
            return json.path("type").asString();
        }

        public String orderRef() {
            return json.path("data").path("orderRef").asString();
        }

        public JsonNode data() {
            return json.path("data");
        }
    }
}
