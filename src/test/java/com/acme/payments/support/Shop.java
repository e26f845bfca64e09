package com.acme.payments.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import com.acme.payments.support.Http.Response;

/** Drives the API the way a shop backend does. */
public final class Shop {

    public static final String SHOP_KEY = "test-shop-key";
    public static final String ADMIN_KEY = "test-admin-key";

    private final Http http;

    public Shop(Http http) {
        this.http = http;
    }

    public static String newOrderRef() {
        return "ord-" + UUID.randomUUID().toString().substring(0, 13);
    }

    /** Creates an order and returns its client token. */
    public CreatedOrder createOrder(String amount, String currency) {
        String ref = newOrderRef();
        Response response = http.bearer(SHOP_KEY).post("/api/orders", """
                {"orderRef":"%s","amount":"%s","currency":"%s","customer":{"referenceId":"cust-1","email":"a@b.test"}}"""
                .formatted(ref, amount, currency));
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        return new CreatedOrder(ref, response.json().path("clientToken").asString());
    }

    public Response checkout(String orderRef) {
        return http.bearer(SHOP_KEY).post("/api/orders/" + orderRef + "/checkout", "{}");
    }

    public Response order(String orderRef) {
        return http.bearer(SHOP_KEY).get("/api/orders/" + orderRef);
    }

    public Response webhook(String body) {
        return http.header("Signature", PspFixtures.hmacHex(body)).post("/webhooks/psp", body);
    }

    public record CreatedOrder(String orderRef, String clientToken) {
    }
}
