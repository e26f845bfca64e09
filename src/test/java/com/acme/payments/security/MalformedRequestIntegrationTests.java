package com.acme.payments.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.PspFixtures;
import com.acme.payments.support.Shop;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The contract's "Hostile input — before anything else": a malformed request is a 4xx problem decided at the
 * edge, with or without credentials, never a 500, an ERROR line or a statement.
 */
@DisplayName("Hostile input: malformed requests are refused at the edge")
class MalformedRequestIntegrationTests extends StripeIntegrationTest {

    private static final String ADMIN = "Bearer " + Shop.ADMIN_KEY;
    private static final byte[] ORDER = ("{\"orderRef\":\"" + Shop.newOrderRef() + "\",\"amount\":\"10.00\","
            + "\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}}").getBytes(StandardCharsets.UTF_8);

    @Test
    @DisplayName("multipart/form-data without a boundary: a 4xx problem on every kind of endpoint, with or without a key")
    void multipartWithoutBoundaryIsRefused() {
        try (ErrorLines errors = new ErrorLines()) {
            for (String auth : new String[] { null, ADMIN, "Bearer " + Shop.SHOP_KEY }) {
                for (String[] call : new String[][] { { "POST", "/api/orders" }, { "GET", "/api/orders/x" },
                        { "GET", "/api/admin/actions" }, { "POST", "/webhooks/psp" }, { "POST", "/webhooks/stripe" },
                        { "POST", "/api/billing/subscriptions/sub_1/sync" } }) {
                    Map<String, String> headers = headers(auth, "multipart/form-data");
                    RawHttp.Response answer = raw().send(call[0], call[1], headers, ORDER);
                    assertThat(answer.status()).as("%s %s as %s: %s", call[0], call[1], auth, answer.body())
                            .isEqualTo(400);
                    assertProblem(answer);
                }
            }
            assertThat(errors.lines()).isEmpty();
        }
    }

    @Test
    @DisplayName("a query value that does not decode or holds a NUL or a lone surrogate: 400 before any statement")
    void undecodableQueryIs400() {
        try (ErrorLines errors = new ErrorLines()) {
            for (String value : List.of("%FF", "%zz", "%", "a%2", "%ED%A0%80", "%00", "x%00y", "%C0%AE")) {
                for (String path : List.of("/api/admin/actions?target=", "/api/admin/outbox?state=",
                        "/api/admin/outbox?limit=", "/api/orders/x/return?status=")) {
                    for (String auth : new String[] { null, ADMIN }) {
                        RawHttp.Response answer = raw().send("GET", path + value, headers(auth, null), null);
                        assertThat(answer.status()).as("%s%s as %s: %s", path, value, auth, answer.body())
                                .isEqualTo(400);
                        assertProblem(answer);
                    }
                }
            }
            assertThat(errors.lines()).isEmpty();
        }
    }

    @Test
    @DisplayName("a path that does not decode or holds a NUL or a lone surrogate: a 400 problem")
    void undecodablePathIs400() {
        for (String path : List.of("/api/orders/%ED%A0%80", "/api/orders/a%FFb", "/api/orders/%00",
                "/api/orders/%zz", "/api/admin/refunds/%ED%B0%80")) {
            RawHttp.Response answer = raw().send("GET", path, headers(ADMIN, null), null);
            assertThat(answer.status()).as("%s: %s", path, answer.body()).isEqualTo(400);
            assertProblem(answer);
        }
    }

    @Test
    @DisplayName("a header value with a control character: a 400 problem")
    void controlCharacterInHeaderIs400() {
        Map<String, String> headers = headers(ADMIN, null);
        headers.put("X-Request-Note", "a\u0001b");
        RawHttp.Response answer = raw().send("GET", "/api/admin/actions", headers, null);
        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertProblem(answer);
    }

    @Test
    @DisplayName("TRACE, PUT and an unknown method: 405 with a problem body")
    void unservedMethodsAre405Problems() {
        for (String method : List.of("TRACE", "PUT", "DELETE", "PATCH", "FOO")) {
            for (String auth : new String[] { null, ADMIN }) {
                RawHttp.Response answer = raw().send(method, "/api/orders", headers(auth, null), null);
                assertThat(answer.status()).as("%s as %s: %s", method, auth, answer.body()).isEqualTo(405);
                assertProblem(answer);
                assertThat(answer.body()).doesNotContain("Authorization");
            }
        }
    }

    @Test
    @DisplayName("JSON under text/plain, form or no Content-Type on an endpoint that reads JSON: 415 problem; nothing created")
    void nonJsonContentTypeIs415() {
        int before = orders();
        for (String type : new String[] { "text/plain", "", "application/x-www-form-urlencoded", "application/xml",
                "application/json; charset=iso-8859-1", "multipart/form-data; boundary=x", "not a type" }) {
            for (String auth : new String[] { null, "Bearer " + Shop.SHOP_KEY }) {
                RawHttp.Response answer = raw().send("POST", "/api/orders", headers(auth, type), ORDER);
                assertThat(answer.status()).as("'%s' as %s: %s", type, auth, answer.body()).isEqualTo(415);
                assertProblem(answer);
            }
        }
        assertThat(orders()).isEqualTo(before);
        RawHttp.Response json = raw().send("POST", "/api/orders",
                headers("Bearer " + Shop.SHOP_KEY, "application/json; charset=UTF-8"), ORDER);
        assertThat(json.status()).as(json.body()).isEqualTo(201);
    }

    @Test
    @DisplayName("a body that is not UTF-8 on an endpoint that reads JSON: a 400 problem")
    void bodyNotUtf8Is400() {
        byte[] latin1 = "{\"orderRef\":\"caf\u00e9\",\"amount\":\"1.00\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c\"}}"
                .getBytes(StandardCharsets.ISO_8859_1);
        RawHttp.Response answer = raw().send("POST", "/api/orders", headers("Bearer " + Shop.SHOP_KEY, null), latin1);
        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertProblem(answer);
    }

    @Test
    @DisplayName("the webhooks still read their raw body whatever its Content-Type: a wrong signature is still 401/400")
    void webhooksKeepTheirContentTypes() {
        for (String type : new String[] { "text/plain", "", "application/octet-stream", "application/x-www-form-urlencoded" }) {
            Map<String, String> headers = headers(null, type);
            headers.put("Signature", "00");
            RawHttp.Response psp = raw().send("POST", "/webhooks/psp", headers, "a=%zz&b=%00".getBytes(StandardCharsets.UTF_8));
            assertThat(psp.status()).as("psp '%s': %s", type, psp.body()).isEqualTo(401);
            assertProblem(psp);
            Map<String, String> stripe = headers(null, type);
            stripe.put("Stripe-Signature", "t=1,v1=00");
            RawHttp.Response answer = raw().send("POST", "/webhooks/stripe", stripe, "a=%zz".getBytes(StandardCharsets.UTF_8));
            assertThat(answer.status()).as("stripe '%s': %s", type, answer.body()).isEqualTo(400);
            assertProblem(answer);
        }
        // a correctly signed PSP webhook under text/plain is read as before (its payment is unknown: still a 200)
        byte[] body = ("{\"id\":\"pay-unknown-ct\",\"referenceId\":\"chk_none\",\"paymentType\":\"DEPOSIT\","
                + "\"state\":\"COMPLETED\",\"amount\":\"10.00\",\"currency\":\"EUR\"}").getBytes(StandardCharsets.UTF_8);
        Map<String, String> signed = headers(null, "text/plain");
        signed.put("Signature", PspFixtures.hmacHex(new String(body, StandardCharsets.UTF_8)));
        RawHttp.Response applied = raw().send("POST", "/webhooks/psp", signed, body);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
    }

    private RawHttp raw() {
        return new RawHttp(port);
    }

    private int orders() {
        return jdbc.sql("SELECT count(*) FROM orders").query(Integer.class).single();
    }

    private static Map<String, String> headers(String authorization, String contentType) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (authorization != null) {
            headers.put("Authorization", authorization);
        }
        if (contentType != null) {
            headers.put("Content-Type", contentType);
        }
        return headers;
    }

    private static void assertProblem(RawHttp.Response answer) {
        assertThat(answer.contentType()).as(answer.status() + " " + answer.body()).startsWith("application/problem+json");
        JsonNode problem = JsonMapper.builder().build().readTree(answer.body()); // one JSON document, nothing after
        assertThat(problem.path("status").asInt()).as(answer.body()).isEqualTo(answer.status());
        assertThat(problem.path("type").asString()).as(answer.body()).startsWith("https://payments.acme.example/problems/");
        assertThat(answer.body()).doesNotContain("Exception").endsWith("}");
    }
}
