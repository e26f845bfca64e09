package com.acme.payments.order;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PspFixtures;
import com.acme.payments.support.Shop;

/** Every answer of the orders rows of the contract, auth first, at the HTTP level. */
class OrderApiIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    String body(String ref, String amount, String currency) {
        return """
                {"orderRef":"%s","amount":%s,"currency":"%s","customer":{"referenceId":"c-9"}}"""
                .formatted(ref, amount, currency);
    }

    @Test
    @DisplayName("create answers 201 with a token; the same body again 200 without; a different amount 409")
    void createIsIdempotentByOrderRef() {
        String ref = Shop.newOrderRef();
        Response first = http().bearer(Shop.SHOP_KEY).post("/api/orders", body(ref, "\"10.01\"", "EUR"));
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.json().path("status").asString()).isEqualTo("AWAITING_PAYMENT");
        assertThat(first.json().path("amount").asString()).isEqualTo("10.01");
        assertThat(first.json().path("clientToken").asString()).hasSizeGreaterThan(30);

        Response again = http().bearer(Shop.SHOP_KEY).post("/api/orders", body(ref, "10.01", "EUR"));
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().has("clientToken")).isFalse();
        assertThat(again.json().path("orderRef").asString()).isEqualTo(ref);

        Response conflict = http().bearer(Shop.SHOP_KEY).post("/api/orders", body(ref, "\"10.02\"", "EUR"));
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.problemSlug()).isEqualTo("order-ref-conflict");
        assertThat(conflict.header("Content-Type")).startsWith("application/problem+json");
        assertThat(count("SELECT count(*) FROM orders WHERE order_ref = '" + ref + "'")).isEqualTo(1);
    }

    @Test
    @DisplayName("a JSON number amount is read exactly, never through double")
    void numberAmountIsExact() {
        String ref = Shop.newOrderRef();
        Response created = http().bearer(Shop.SHOP_KEY).post("/api/orders", body(ref, "0.30", "USD"));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().path("amount").asString()).isEqualTo("0.30");
        Response jpy = http().bearer(Shop.SHOP_KEY).post("/api/orders", body(Shop.newOrderRef(), "1500", "JPY"));
        assertThat(jpy.json().path("amount").asString()).isEqualTo("1500");
        Response bhd = http().bearer(Shop.SHOP_KEY).post("/api/orders", body(Shop.newOrderRef(), "\"1.234\"", "BHD"));
        assertThat(bhd.json().path("amount").asString()).isEqualTo("1.234");
    }

    @ParameterizedTest(name = "{0} → 400 naming {2}")
    @CsvSource(delimiter = '|', value = {
            "negative amount        | {\"orderRef\":\"R\",\"amount\":\"-1.00\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}} | amount",
            "zero amount            | {\"orderRef\":\"R\",\"amount\":\"0\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}}     | amount",
            "over-precise EUR       | {\"orderRef\":\"R\",\"amount\":\"1.001\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}} | amount",
            "fractional JPY         | {\"orderRef\":\"R\",\"amount\":\"1.5\",\"currency\":\"JPY\",\"customer\":{\"referenceId\":\"c\"}}   | amount",
            "unknown currency       | {\"orderRef\":\"R\",\"amount\":\"1.00\",\"currency\":\"ABC\",\"customer\":{\"referenceId\":\"c\"}}  | currency",
            "lower-case junk        | {\"orderRef\":\"R\",\"amount\":\"1.00\",\"currency\":\"eu\",\"customer\":{\"referenceId\":\"c\"}}   | currency",
            "amount not a number    | {\"orderRef\":\"R\",\"amount\":\"ten\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}}   | amount",
            "amount an object       | {\"orderRef\":\"R\",\"amount\":{},\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}}        | amount",
            "missing customer       | {\"orderRef\":\"R\",\"amount\":\"1.00\",\"currency\":\"EUR\"}                                      | customer",
            "missing amount         | {\"orderRef\":\"R\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}}                     | amount",
            "bad orderRef           | {\"orderRef\":\"../../etc\",\"amount\":\"1.00\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}} | orderRef",
            "huge amount            | {\"orderRef\":\"R\",\"amount\":1e400,\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}}     | amount",
            "bad email              | {\"orderRef\":\"R\",\"amount\":\"1.00\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\",\"email\":\"nope\"}} | customer.email" })
    void invalidOrderIs400AndWritesNothing(String name, String json, String field) {
        String ref = Shop.newOrderRef();
        int before = count("SELECT count(*) FROM orders");
        Response response = http().bearer(Shop.SHOP_KEY).post("/api/orders", json.replace("\"R\"", "\"" + ref + "\""));
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(response.json().path("errors").toString()).contains("\"" + field + "\"");
        assertThat(count("SELECT count(*) FROM orders")).isEqualTo(before);
    }

    @Test
    @DisplayName("malformed JSON and an empty body are 400 problems")
    void malformedJsonIs400() {
        Response malformed = http().bearer(Shop.SHOP_KEY).post("/api/orders", "{\"orderRef\":");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.problemSlug()).isEqualTo("malformed-request");
        assertThat(http().bearer(Shop.SHOP_KEY).post("/api/orders", "").status()).isEqualTo(400);
        assertThat(http().bearer(Shop.SHOP_KEY).post("/api/orders", "[1,2]").status()).isEqualTo(400);
    }

    @Test
    @DisplayName("no credential or an unknown one is 401, before the body is even read")
    void missingOrWrongCredentialIs401() {
        String valid = body(Shop.newOrderRef(), "\"1.00\"", "EUR");
        assertThat(http().post("/api/orders", valid).status()).isEqualTo(401);
        assertThat(http().bearer("nope").post("/api/orders", valid).status()).isEqualTo(401);
        assertThat(http().header("Authorization", "Basic dGVzdA==").post("/api/orders", valid).status()).isEqualTo(401);
        assertThat(http().post("/api/orders", "{broken").status()).as("401 before 400").isEqualTo(401);
        Response unauthorized = http().bearer("nope").get("/api/orders/whatever");
        assertThat(unauthorized.status()).isEqualTo(401);
        assertThat(unauthorized.body()).doesNotContain("nope");
    }

    @Test
    @DisplayName("the order's token reads its order; another order's token is 403; an admin key holds orders too")
    void clientTokenIsScopedToItsOrder() {
        Shop shop = new Shop(http());
        var mine = shop.createOrder("2.00", "EUR");
        var other = shop.createOrder("3.00", "EUR");
        assertThat(http().bearer(mine.clientToken()).get("/api/orders/" + mine.orderRef()).status()).isEqualTo(200);
        assertThat(http().bearer(other.clientToken()).get("/api/orders/" + mine.orderRef()).status()).isEqualTo(403);
        assertThat(http().bearer(other.clientToken()).post("/api/orders/" + mine.orderRef() + "/checkout", "{}")
                .status()).isEqualTo(403);
        assertThat(http().bearer(mine.clientToken()).post("/api/orders", body(Shop.newOrderRef(), "1", "EUR"))
                .status()).as("a token cannot create orders").isEqualTo(403);
        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/orders", body(Shop.newOrderRef(), "1", "EUR")).status())
                .as("an ADMIN_API_KEYS entry holds every scope").isEqualTo(201);
        assertThat(http().bearer(mine.clientToken()).get("/api/orders/no-such-order").status())
                .as("403 comes before 404").isEqualTo(403);
    }

    @Test
    @DisplayName("unknown orders are 404 for reads, checkout and return")
    void unknownOrderIs404() {
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/orders/no-such-order").status()).isEqualTo(404);
        assertThat(http().bearer(Shop.SHOP_KEY).post("/api/orders/no-such-order/checkout", "{}").status()).isEqualTo(404);
        assertThat(http().bearer(Shop.SHOP_KEY).post("/api/orders/no-such-order/checkout", "{bad").status())
                .as("404 before 400").isEqualTo(404);
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/orders/no-such-order/return").status()).isEqualTo(404);
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/orders/" + "x".repeat(5000)).status()).isIn(404, 414, 400);
    }

    @Test
    @DisplayName("a return URL outside the allowed prefixes is 400 and no attempt is created")
    void openRedirectIsRefused() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("2.00", "EUR");
        for (String url : new String[] { "https://evil.test/", "https://shop.test.evil.test/x", "javascript:alert(1)",
                "//evil.test", "https://shop.test/\\@evil.test" }) {
            Response response = http().bearer(Shop.SHOP_KEY).post("/api/orders/" + order.orderRef() + "/checkout",
                    "{\"returnUrl\":\"" + url.replace("\\", "\\\\") + "\"}");
            assertThat(response.status()).as(url).isEqualTo(400);
        }
        assertThat(count("SELECT count(*) FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = '"
                + order.orderRef() + "'")).isZero();
        psp.stubFor(PspFixtures.createCall().willReturn(PspFixtures.created("pay-ru-" + order.orderRef(), "CHECKOUT", "2.00", "EUR")));
        Response allowed = http().bearer(order.clientToken()).post("/api/orders/" + order.orderRef() + "/checkout",
                "{\"returnUrl\":\"https://shop.test/orders/1/done\"}");
        assertThat(allowed.status()).isEqualTo(200);
        psp.verify(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
                com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/api/v1/payments"))
                .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath("$.returnUrl",
                        com.github.tomakehurst.wiremock.client.WireMock.equalTo("https://shop.test/orders/1/done")))
                .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath("$.webhookUrl",
                        com.github.tomakehurst.wiremock.client.WireMock.equalTo("http://payments.test/webhooks/psp")))
                .withHeader("Authorization", com.github.tomakehurst.wiremock.client.WireMock.equalTo("Bearer test-psp-key"))
                .withHeader("User-Agent", com.github.tomakehurst.wiremock.client.WireMock.matching("acme-payments.*")));
    }

    @Test
    @DisplayName("an order body over 1 MiB is 413")
    void oversizedOrderIs413() {
        String padding = "x".repeat((1 << 20) + 1);
        Response response = http().bearer(Shop.SHOP_KEY).post("/api/orders",
                "{\"orderRef\":\"a\",\"pad\":\"" + padding + "\"}");
        assertThat(response.status()).isEqualTo(413);
    }

    int count(String sql) {
        return jdbc.sql(sql).query(Integer.class).single();
    }
}
