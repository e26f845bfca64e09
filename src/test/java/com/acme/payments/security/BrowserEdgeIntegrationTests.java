package com.acme.payments.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * The contract's "browser's edge": CORS for {@code SHOP_ORIGINS} (the test profile: {@code https://shop.test},
 * {@code https://m.shop.test/}) on the three client-token endpoints only, {@code nosniff} on every answer,
 * {@code no-store} on token and admin answers, and the 401/403 → 404 → 400 order unchanged by an Origin.
 */
class BrowserEdgeIntegrationTests extends IntegrationTest {

    private static final String SHOP = "https://shop.test";

    private Response preflight(String origin, String method, String path, String requestHeaders) {
        Http http = http().header("Origin", origin).header("Access-Control-Request-Method", method);
        if (requestHeaders != null) {
            http = http.header("Access-Control-Request-Headers", requestHeaders);
        }
        return http.send("OPTIONS", path, null);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({ "GET, /api/orders/any-order", "POST, /api/orders/any-order/checkout",
            "GET, /api/orders/any-order/return" })
    @DisplayName("a preflight from a shop origin to a token endpoint is answered, without a credential")
    void aPreflightFromAShopOriginIsAnswered(String method, String path) {
        Response answer = preflight(SHOP, method, path, "authorization,content-type");
        assertThat(answer.status()).as(answer.body()).isIn(200, 204);
        assertThat(answer.header("Access-Control-Allow-Origin")).isEqualTo(SHOP);
        assertThat(answer.header("Access-Control-Allow-Headers")).isEqualTo("Authorization, Content-Type");
        assertThat(answer.header("Access-Control-Allow-Methods")).contains(method);
        assertThat(answer.header("Access-Control-Allow-Credentials")).isNull();
        assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");

        Response second = preflight("https://m.shop.test", method, path, "Authorization");
        assertThat(second.header("Access-Control-Allow-Origin")).as("the second origin, trailing slash dropped")
                .isEqualTo("https://m.shop.test");
        assertThat(second.header("Access-Control-Allow-Headers")).isEqualTo("Authorization, Content-Type");
    }

    @Test
    @DisplayName("another origin, another method or another header gets no Access-Control-Allow-Origin")
    void otherOriginsMethodsAndHeadersGetNoAllowOrigin() {
        for (Response refused : List.of(preflight("https://evil.test", "GET", "/api/orders/x", "authorization"),
                preflight("https://shop.test.evil.test", "GET", "/api/orders/x", null),
                preflight("http://shop.test", "GET", "/api/orders/x", null),
                preflight(SHOP, "DELETE", "/api/orders/x", null),
                preflight(SHOP, "POST", "/api/orders/x/return", null),
                preflight(SHOP, "GET", "/api/orders/x", "x-admin"))) {
            assertThat(refused.header("Access-Control-Allow-Origin")).as(refused.toString()).isNull();
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({ "POST, /api/orders", "POST, /api/orders/x/refunds", "GET, /api/orders/x/refunds",
            "POST, /api/orders/x/capture", "POST, /api/orders/x/void", "GET, /api/admin/outbox",
            "GET, /api/billing/users/u1", "POST, /webhooks/psp", "POST, /webhooks/stripe" })
    @DisplayName("admin endpoints, order creation and webhooks never answer CORS, not even to a shop origin")
    void adminAndWebhooksNeverAnswerCors(String method, String path) {
        Response answer = preflight(SHOP, method, path, "authorization");
        assertThat(answer.status()).as("Spring MVC's preflight handler, not a refusal turned 500: " + answer.body())
                .isEqualTo(200);
        assertThat(answer.header("Access-Control-Allow-Origin")).isNull();
        assertThat(answer.header("Access-Control-Allow-Methods")).isNull();
        assertThat(answer.header("Access-Control-Allow-Headers")).isNull();
        Response actual = http().header("Origin", SHOP).bearer(Shop.ADMIN_KEY).send(method, path,
                method.equals("POST") ? "{}".getBytes() : null);
        assertThat(actual.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    @DisplayName("the token's own requests from a shop origin carry Access-Control-Allow-Origin; elsewhere none, same answer")
    void actualRequestsCarryAllowOriginOnlyForShopOrigins() {
        Shop.CreatedOrder order = new Shop(http()).createOrder("10.00", "EUR");
        Http browser = http().bearer(order.clientToken());

        Response fromShop = browser.header("Origin", SHOP).get("/api/orders/" + order.orderRef());
        assertThat(fromShop.status()).isEqualTo(200);
        assertThat(fromShop.header("Access-Control-Allow-Origin")).isEqualTo(SHOP);
        assertThat(fromShop.header("Access-Control-Expose-Headers")).contains("Retry-After");
        assertThat(fromShop.headers().get("Vary")).anyMatch(v -> v.contains("Origin"));

        Response fromElsewhere = browser.header("Origin", "https://evil.test").get("/api/orders/" + order.orderRef());
        assertThat(fromElsewhere.status()).as("answered as usual: the browser withholds it").isEqualTo(200);
        assertThat(fromElsewhere.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    @DisplayName("an Origin changes nothing of the contract's order: 401/403, then 404, then 400")
    void anOriginKeepsThePrecedence() {
        Http fromShop = http().header("Origin", SHOP);
        Http fromElsewhere = http().header("Origin", "https://evil.test");
        for (Http browser : List.of(fromShop, fromElsewhere)) {
            assertThat(browser.get("/api/orders/no-such-order").status()).isEqualTo(401);
            assertThat(browser.bearer("not-a-key").post("/api/orders/no-such-order/checkout", "{").status())
                    .isEqualTo(401);
            Shop.CreatedOrder other = new Shop(http()).createOrder("10.00", "EUR");
            assertThat(browser.bearer(other.clientToken()).get("/api/orders/no-such-order").status())
                    .as("a valid token of another order").isEqualTo(403);
            assertThat(browser.bearer(Shop.SHOP_KEY).get("/api/orders/no-such-order").status()).isEqualTo(404);
            assertThat(browser.bearer(Shop.SHOP_KEY).post("/api/orders/no-such-order/checkout", "{").status())
                    .isEqualTo(404);
            assertThat(browser.bearer(other.clientToken()).post("/api/orders/" + other.orderRef() + "/checkout", "{")
                    .status()).as("a malformed body on the token's own order").isEqualTo(400);
        }
    }

    @Test
    @DisplayName("every answer carries nosniff: 2xx, 4xx, the actuator, a webhook, a refusal Tomcat makes itself")
    void everyAnswerCarriesNosniff() {
        List<Response> answers = List.of(http().bearer(Shop.SHOP_KEY).get("/api/orders/no-such-order"),
                http().get("/api/orders/x"), http().get("/actuator/health"), http().get("/v3/api-docs"),
                http().post("/webhooks/psp", "{}"), http().get("/no/such/path"),
                http().bearer(Shop.ADMIN_KEY).get("/api/admin/outbox"));
        for (Response answer : answers) {
            assertThat(answer.header("X-Content-Type-Options")).as(answer.status() + " " + answer.body())
                    .isEqualTo("nosniff");
        }
        RawHttp.Response tomcat = new RawHttp(port).send("GET", "/api/orders/a%2Fb", Map.of(), null);
        assertThat(tomcat.status()).as("refused by Tomcat before any filter").isEqualTo(400);
        assertThat(tomcat.headers()).containsEntry("x-content-type-options", "nosniff");
    }

    @Test
    @DisplayName("Cache-Control: no-store on the answer carrying a clientToken and on admin answers, refusals included")
    void tokenAndAdminAnswersAreNotStored() {
        Response created = http().bearer(Shop.SHOP_KEY).post("/api/orders", """
                {"orderRef":"%s","amount":"10.00","currency":"EUR","customer":{"referenceId":"c"}}"""
                .formatted(Shop.newOrderRef()));
        assertThat(created.json().path("clientToken").asString()).isNotBlank();
        assertThat(created.header("Cache-Control")).isEqualTo("no-store");
        for (Response admin : List.of(http().bearer(Shop.ADMIN_KEY).get("/api/admin/outbox"),
                http().bearer(Shop.ADMIN_KEY).get("/api/billing/users/no-such-user"),
                http().bearer(Shop.ADMIN_KEY).get("/api/orders/no-such-order/refunds"),
                http().get("/api/admin/outbox"))) {
            assertThat(admin.header("Cache-Control")).as(admin.status() + " " + admin.body()).isEqualTo("no-store");
        }
    }
}
