package com.acme.payments.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Shop;

/** The defects the hostile-input fuzz found, one scenario each, pinned. */
class HostileInputRegressionIntegrationTests extends StripeIntegrationTest {

    private RawHttp.Response createOrder(String orderRef, String referenceIdJson) {
        byte[] body = ("{\"orderRef\":\"" + orderRef + "\",\"amount\":\"10.00\",\"currency\":\"EUR\","
                + "\"customer\":{\"referenceId\":" + referenceIdJson + "}}").getBytes(StandardCharsets.UTF_8);
        return new RawHttp(port).send("POST", "/api/orders", Map.of("Authorization", "Bearer " + Shop.SHOP_KEY), body);
    }

    private int orders(String orderRef) {
        return jdbc.sql("SELECT count(*) FROM orders WHERE order_ref = :ref").param("ref", orderRef)
                .query(Integer.class).single();
    }

    @Test
    @DisplayName("a NUL in a request's text is a 400 validation problem, not a 500 from PostgreSQL")
    void nulInTextIs400() {
        String ref = Shop.newOrderRef();
        RawHttp.Response response = createOrder(ref, "\"cust\\u0000one\"");
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).contains("customer.referenceId");
        assertThat(orders(ref)).isZero();
    }

    @Test
    @DisplayName("a lone surrogate in a request's text is a 400, not an order stored with '?'")
    void loneSurrogateInTextIs400() {
        String ref = Shop.newOrderRef();
        RawHttp.Response response = createOrder(ref, "\"cust\\ud800\"");
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(orders(ref)).isZero();
    }

    @Test
    @DisplayName("an amount whose exponent is out of range (1e-2147483648) is a 400, not a 500")
    void exponentOutOfRangeIs400() {
        String ref = Shop.newOrderRef();
        byte[] body = ("{\"orderRef\":\"" + ref + "\",\"amount\":1e-2147483648,\"currency\":\"EUR\","
                + "\"customer\":{\"referenceId\":\"c\"}}").getBytes(StandardCharsets.UTF_8);
        RawHttp.Response response = new RawHttp(port).send("POST", "/api/orders",
                Map.of("Authorization", "Bearer " + Shop.SHOP_KEY), body);
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(orders(ref)).isZero();
    }

    @Test
    @DisplayName("a signed PSP webhook whose id holds a NUL or a lone surrogate is a 400 and leaves no receipt")
    void signedWebhookWithUnstorableTextIs400() {
        for (String id : new String[] { "pay\\u0000x", "pay\\udc00x" }) {
            String body = "{\"id\":\"" + id + "\",\"state\":\"COMPLETED\",\"amount\":\"10.00\",\"currency\":\"EUR\"}";
            String signature = com.acme.payments.support.PspFixtures.hmacHex(body);
            long before = jdbc.sql("SELECT count(*) FROM psp_webhook_event").query(Long.class).single();
            RawHttp.Response response = new RawHttp(port).send("POST", "/webhooks/psp", Map.of("Signature", signature),
                    body.getBytes(StandardCharsets.UTF_8));
            assertThat(response.status()).as(id + " " + response.body()).isEqualTo(400);
            assertThat(jdbc.sql("SELECT count(*) FROM psp_webhook_event").query(Long.class).single()).isEqualTo(before);
        }
    }

    @Test
    @DisplayName("a signed Stripe event whose id holds a NUL or a lone surrogate is kept as faulted (200), not a 503 or a '?' id")
    void signedStripeEventWithUnstorableIdIsFaulted() {
        for (String id : new String[] { "evt_\\u0000x", "evt_x\\ud83dz" }) {
            byte[] body = ("{\"id\":\"" + id + "\",\"type\":\"invoice.paid\",\"data\":{\"object\":{}}}")
                    .getBytes(StandardCharsets.UTF_8);
            long now = System.currentTimeMillis() / 1000;
            String header = "t=" + now + ",v1=" + java.util.HexFormat.of().formatHex(stripeMac(now, body));
            RawHttp.Response response = new RawHttp(port).send("POST", "/webhooks/stripe",
                    Map.of("Stripe-Signature", header), body);
            assertThat(response.status()).as(id + " " + response.body()).isEqualTo(200);
            // kept under the id as the JSON wrote it (the NUL or surrogate escaped) and a digest of the whole id
            assertThat(jdbc.sql("SELECT state FROM processed_webhook_events WHERE starts_with(id, :p)")
                    .param("p", id + "…#").query(String.class).list()).containsExactly("faulted");
        }
    }

    private static byte[] stripeMac(long timestamp, byte[] body) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec("whsec_test_secret".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(body);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @DisplayName("a billing sync for an id that cannot be a Stripe id ('..', '.', '~root') is a 404 (400 where the firewall refuses a ';' path) and never reaches the Stripe API")
    void billingSyncNeverForwardsATraversalToStripe() {
        RawHttp raw = new RawHttp(port);
        for (String id : new String[] { "..;", "%2e%2e;x=1", "~root", "%F0%9F%98%80" }) {
            RawHttp.Response response = raw.send("POST", "/api/billing/subscriptions/" + id + "/sync",
                    Map.of("Authorization", "Bearer " + Shop.ADMIN_KEY), null);
            // a path with ';' (a path parameter) is refused whole by Spring Security's firewall: 400 bad-request
            assertThat(response.status()).as(id + " " + response.body()).isEqualTo(id.contains(";") ? 400 : 404);
            assertThat(response.body()).as(id).contains("\"type\"");
        }
        assertThat(psp.getAllServeEvents()).extracting(e -> e.getRequest().getUrl()).isEmpty();
    }

    @Test
    @DisplayName("requests Tomcat refuses itself (encoded slash, %00, 10 KB header) still get a problem body")
    void tomcatRefusalsAreProblems() {
        RawHttp raw = new RawHttp(port);
        Map<String, String> shop = Map.of("Authorization", "Bearer " + Shop.SHOP_KEY);
        for (RawHttp.Response response : new RawHttp.Response[] {
                raw.send("GET", "/api/orders/a%2Fb", shop, null),
                raw.send("GET", "/api/orders/a%00b", shop, null),
                raw.send("GET", "/api/orders/%zz", shop, null),
                raw.send("GET", "/api/orders/" + "a".repeat(10 * 1024), shop, null),
                raw.send("GET", "/api/orders/x", Map.of("Authorization", "Bearer " + "k".repeat(10 * 1024)), null) }) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.body()).contains("\"status\":400").doesNotContain("Exception").doesNotContain("<html");
        }
    }
}
