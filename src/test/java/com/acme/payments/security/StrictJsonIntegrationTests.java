package com.acme.payments.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Shop;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Strict JSON in our API's requests, through the real service: what a lenient reader would have coerced
 * or let through is a 400 validation problem naming the field, and no row is written.
 */
@DisplayName("Strict JSON: duplicate keys, coerced scalars, loose amounts and currencies, control characters")
class StrictJsonIntegrationTests extends StripeIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RawHttp.Response post(String target, Map<String, String> headers, String body) {
        return new RawHttp(port).send("POST", target, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    private RawHttp.Response createOrder(String body) {
        return post("/api/orders", Map.of("Authorization", "Bearer " + Shop.SHOP_KEY, "Content-Type",
                "application/json"), body);
    }

    private static String order(String orderRef, String amount, String currency, String referenceId) {
        return "{\"orderRef\":" + orderRef + ",\"amount\":" + amount + ",\"currency\":" + currency
                + ",\"customer\":{\"referenceId\":" + referenceId + "}}";
    }

    private int orders(String orderRef) {
        return jdbc.sql("SELECT count(*) FROM orders WHERE order_ref = :ref").param("ref", orderRef)
                .query(Integer.class).single();
    }

    /** Asserts a 400 validation problem naming exactly {@code field}. */
    private static void refused(RawHttp.Response response, String field, String what) {
        assertThat(response.status()).as(what + ": " + response.body()).isEqualTo(400);
        assertThat(response.headers().get("content-type")).as(what).startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.path("type").asString()).as(what).endsWith("validation-failed");
        assertThat(problem.path("errors").valueStream().map(e -> e.path("field").asString()).toList())
                .as(what + ": " + response.body()).containsExactly(field);
    }

    @Test
    @DisplayName("a duplicate key is a 400 naming it, at the top or nested, and not 'the last one wins'")
    void duplicateKeysAre400() {
        String ref = Shop.newOrderRef();
        refused(createOrder("{\"orderRef\":\"" + ref + "\",\"orderRef\":\"" + ref + "x\",\"amount\":\"10.00\","
                + "\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c1\"}}"), "orderRef", "duplicate orderRef");
        refused(createOrder("{\"orderRef\":\"" + ref + "\",\"amount\":\"10.00\",\"currency\":\"EUR\","
                + "\"customer\":{\"referenceId\":\"c1\",\"referenceId\":\"c2\"}}"), "customer.referenceId",
                "duplicate nested referenceId");
        refused(createOrder("{\"orderRef\":\"" + ref + "\",\"amount\":\"10.00\",\"amount\":\"1000.00\","
                + "\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"c1\"}}"), "amount", "duplicate amount");
        // a key that looks like an index stays a key
        refused(createOrder("{\"orderRef\":\"" + ref + "\",\"amount\":\"10.00\",\"currency\":\"EUR\","
                + "\"customer\":{\"referenceId\":\"c1\"},\"extra\":[{\"0\":1,\"0\":2}]}"), "extra[0].0",
                "duplicate key in an ignored field");
        assertThat(orders(ref)).isZero();
        assertThat(orders(ref + "x")).isZero();
    }

    @Test
    @DisplayName("a number, boolean, object or array where a string belongs is a 400, never coerced")
    void scalarsAreNotCoercedIntoStrings() {
        for (String value : List.of("12345", "123.5", "true", "false", "{}", "[\"a\"]")) {
            refused(createOrder(order(value, "\"10.00\"", "\"EUR\"", "\"c1\"")), "orderRef", "orderRef " + value);
            refused(createOrder(order("\"" + Shop.newOrderRef() + "\"", "\"10.00\"", "\"EUR\"", value)),
                    "customer.referenceId", "referenceId " + value);
            refused(createOrder(order("\"" + Shop.newOrderRef() + "\"", "\"10.00\"", value, "\"c1\"")), "currency",
                    "currency " + value);
        }
        assertThat(orders("12345")).isZero();
        assertThat(orders("true")).isZero();
    }

    @Test
    @DisplayName("an amount string must be a plain decimal: '1e2' is a 400, not 100.00; so are signs, spaces, separators")
    void amountStringsArePlainDecimals() {
        for (String amount : List.of("1e2", "1E2", " 10.00 ", "10.00 ", "+10.00", "-10.00", "10,00", "1,000.00",
                "1_000", "0x10", "Infinity", "NaN", "10.", ".5", "", "１０")) {
            String ref = Shop.newOrderRef();
            refused(createOrder(order("\"" + ref + "\"", JSON.writeValueAsString(amount), "\"EUR\"", "\"c1\"")),
                    "amount", "amount '" + amount + "'");
            assertThat(orders(ref)).as(amount).isZero();
        }
    }

    @Test
    @DisplayName("a JSON number amount is still accepted and read exactly, never through double")
    void numberAmountsAreReadExactly() {
        String ref = Shop.newOrderRef();
        RawHttp.Response created = createOrder(order("\"" + ref + "\"", "12.34", "\"EUR\"", "\"c1\""));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(JSON.readTree(created.body()).path("amount").asString()).isEqualTo("12.34");
        String plain = Shop.newOrderRef();
        RawHttp.Response string = createOrder(order("\"" + plain + "\"", "\"7.5\"", "\"EUR\"", "\"c1\""));
        assertThat(string.status()).as(string.body()).isEqualTo(201);
        assertThat(JSON.readTree(string.body()).path("amount").asString()).isEqualTo("7.50");
        // through a double this would be 10.0 and accepted; exactly, it has too many fraction digits
        String precise = Shop.newOrderRef();
        refused(createOrder(order("\"" + precise + "\"", "10.000000000000000000001", "\"EUR\"", "\"c1\"")), "amount",
                "an amount a double would round");
        assertThat(orders(precise)).isZero();
    }

    @Test
    @DisplayName("a currency is three upper-case letters of ISO 4217: 'eur' is a 400")
    void currencyIsUpperCaseIso4217() {
        for (String currency : List.of("eur", "Eur", "EURO", "XXX", "XAU", "E1R", " EUR")) {
            String ref = Shop.newOrderRef();
            refused(createOrder(order("\"" + ref + "\"", "\"10.00\"", JSON.writeValueAsString(currency), "\"c1\"")),
                    "currency", "currency '" + currency + "'");
            assertThat(orders(ref)).as(currency).isZero();
        }
    }

    @Test
    @DisplayName("identifiers, references and reasons refuse CR, LF, NUL, ESC, C1 controls and bidi overrides")
    void controlCharactersAreRefused() {
        List<String> hostile = List.of("a\rb", "a\nb", "a\u0000b", "a\u001b[31mb", "a\tb", "a\u007fb", "a\u0085b",
                "a\u009bb", "a\u202eb", "a\u202ab", "a\u2066b", "a\u2069b");
        for (String text : hostile) {
            String literal = JSON.writeValueAsString(text);
            String ref = Shop.newOrderRef();
            refused(createOrder(order("\"" + ref + "\"", "\"10.00\"", "\"EUR\"", literal)), "customer.referenceId",
                    "referenceId " + literal);
            assertThat(orders(ref)).as(literal).isZero();
            refused(createOrder(order(literal, "\"10.00\"", "\"EUR\"", "\"c1\"")), "orderRef", "orderRef " + literal);
        }
        // a refund's reason and key: the body is read after the order and the key are found
        String ref = new Shop(http()).createOrder("10.00", "EUR").orderRef();
        for (String text : hostile) {
            String literal = JSON.writeValueAsString(text);
            refused(post("/api/orders/" + ref + "/refunds", Map.of("Authorization", "Bearer " + Shop.ADMIN_KEY,
                    "Content-Type", "application/json", "Idempotency-Key", "k-" + Shop.newOrderRef()),
                    "{\"amount\":\"1.00\",\"currency\":\"EUR\",\"reason\":" + literal + "}"), "reason",
                    "refund reason " + literal);
        }
        for (String key : List.of("k\u001b[0m", "k\u202ex", "k\u0085x")) {
            // a control character may already be refused by the HTTP edge; either way a 400 problem, no refund
            RawHttp.Response response = post("/api/orders/" + ref + "/refunds", Map.of("Authorization", "Bearer "
                    + Shop.ADMIN_KEY, "Content-Type", "application/json", "Idempotency-Key", key),
                    "{\"amount\":\"1.00\",\"currency\":\"EUR\"}");
            assertThat(response.status()).as(JSON.writeValueAsString(key) + ": " + response.body()).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
        }
        // a checkout's return URL: java.net.URI alone would take a bidi override in its path
        String awaiting = new Shop(http()).createOrder("10.00", "EUR").orderRef();
        for (String url : List.of("https://shop.test/ok\u202egpj.exe", "https://shop.test/a\u2066b")) {
            refused(post("/api/orders/" + awaiting + "/checkout", Map.of("Authorization", "Bearer " + Shop.SHOP_KEY,
                    "Content-Type", "application/json"), "{\"returnUrl\":" + JSON.writeValueAsString(url) + "}"),
                    "returnUrl", "returnUrl " + JSON.writeValueAsString(url));
        }
        assertThat(jdbc.sql("SELECT count(*) FROM psp_attempt a JOIN orders o ON o.id = a.order_id "
                + "WHERE o.order_ref = :ref").param("ref", awaiting).query(Integer.class).single()).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM psp_refund_attempt r JOIN orders o ON o.id = r.order_id "
                + "WHERE o.order_ref = :ref").param("ref", ref).query(Integer.class).single()).isZero();
    }

    @Test
    @DisplayName("webhook payloads keep their own rules: a duplicate key or a number for a string is not refused there")
    void webhookPayloadsAreNotMadeStrict() {
        // Stripe: an unhandled type is acknowledged, whatever its shape
        String stripe = "{\"id\":\"evt_dup1\",\"type\":\"customer.created\",\"livemode\":false,\"livemode\":true,"
                + "\"data\":{\"object\":{\"id\":\"cus_1\",\"name\":42}}}";
        assertThat(deliver(stripe).status()).isEqualTo(200);
        // the PSP: a payment we do not know, with a duplicate key and a numeric amount, is answered as such
        String payment = "{\"id\":\"pay-dup-" + Shop.newOrderRef() + "\",\"state\":\"COMPLETED\",\"amount\":10.00,"
                + "\"currency\":\"EUR\",\"errorMessage\":null,\"errorMessage\":\"x\"}";
        RawHttp.Response psp = post("/webhooks/psp", Map.of("Signature",
                com.acme.payments.support.PspFixtures.hmacHex(payment)), payment);
        assertThat(psp.status()).as(psp.body()).isEqualTo(200);
        assertThat(psp.body()).contains("unknown_payment");
    }

    @Test
    @DisplayName("plain text with letters of any script, spaces and punctuation is still accepted")
    void plainTextIsAccepted() {
        String ref = Shop.newOrderRef();
        RawHttp.Response created = createOrder(order("\"" + ref + "\"", "\"10.00\"", "\"EUR\"",
                "\"Zoë O'Brien – 顧客 #42 (ID: a/b)\""));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(orders(ref)).isOne();
    }
}
