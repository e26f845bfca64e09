package com.acme.payments.security;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http;
import com.acme.payments.support.PspFixtures;
import com.acme.payments.support.Shop;

/**
 * No secret in the logs. A run of representative calls (orders, checkout with the PSP's
 * bearer, refunds, signed and badly signed webhooks of both providers, 401s and 403s, a 500-free fuzz of
 * headers) is captured, then searched for every configured key, every client token handed out and every
 * Authorization / Signature / Stripe-Signature value sent.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretsInLogsIntegrationTests extends StripeIntegrationTest {

    @Test
    @DisplayName("no key, client token, Authorization or signature value appears in the log of a full run")
    void noSecretInTheLogs(CapturedOutput output) {
        List<String> secrets = new ArrayList<>(List.of(Shop.SHOP_KEY, "second-shop-key", Shop.ADMIN_KEY,
                "test-psp-key", PspFixtures.SIGNING_KEY, StripeFixtures.SECRET, "sk_test_key"));
        Shop shop = new Shop(http());
        Http admin = http().bearer(Shop.ADMIN_KEY);

        // orders, checkout (the PSP sees our bearer), the order read with the client token
        var order = shop.createOrder("25.00", "EUR");
        secrets.add(order.clientToken());
        PaidOrders.checkout(http().bearer(order.clientToken()), psp, jdbc, order.orderRef(), "COMPLETED", "25.00");
        psp.verify(postRequestedFor(urlEqualTo("/api/v1/payments")).withHeader("Authorization",
                equalTo("Bearer test-psp-key")));
        assertThat(http().bearer(order.clientToken()).get("/api/orders/" + order.orderRef()).status()).isEqualTo(200);

        // refunds: one the PSP completes, one it refuses
        psp.resetAll();
        psp.stubFor(createCall().willReturn(created("rfd-" + order.orderRef(), "COMPLETED", "5.00", "EUR")));
        assertThat(admin.header("Idempotency-Key", "rk-log-" + order.orderRef())
                .post("/api/orders/" + order.orderRef() + "/refunds", "{\"amount\":\"5.00\",\"currency\":\"EUR\"}")
                .status()).isEqualTo(201);

        // a second order whose token is used on the first: 403
        var other = shop.createOrder("9.00", "EUR");
        secrets.add(other.clientToken());
        assertThat(http().bearer(other.clientToken()).get("/api/orders/" + order.orderRef()).status()).isEqualTo(403);

        // signed and badly signed PSP webhooks
        String webhook = payment("pay-" + other.orderRef() + "-x", null, "DEPOSIT", "COMPLETED", "9.00", "EUR");
        String goodSignature = PspFixtures.hmacHex(webhook);
        secrets.add(goodSignature);
        secrets.add(PspFixtures.hmacBase64(webhook));
        assertThat(http().header("Signature", goodSignature).post("/webhooks/psp", webhook).status()).isEqualTo(200);
        String forged = goodSignature.replace('a', 'b').replace('1', '2');
        secrets.add(forged);
        assertThat(http().header("Signature", forged).post("/webhooks/psp", webhook).status()).isEqualTo(401);
        assertThat(http().header("Signature", PspFixtures.hmacBase64(webhook))
                .post("/webhooks/psp", webhook.replace("9.00", "90.00")).status()).isEqualTo(401);

        // signed and badly signed Stripe webhooks
        String event = StripeFixtures.event(StripeFixtures.id("evt"), "customer.created", "{\"id\":\"cus_1\"}");
        String stripeSignature = StripeFixtures.signature(event, System.currentTimeMillis() / 1000, StripeFixtures.SECRET);
        secrets.add(stripeSignature.substring(stripeSignature.indexOf("v1=") + 3));
        assertThat(http().header("Stripe-Signature", stripeSignature).post("/webhooks/stripe", event).status())
                .isEqualTo(200);
        String stale = StripeFixtures.signature(event, System.currentTimeMillis() / 1000 - 3600, StripeFixtures.SECRET);
        secrets.add(stale.substring(stale.indexOf("v1=") + 3));
        assertThat(http().header("Stripe-Signature", stale).post("/webhooks/stripe", event).status()).isEqualTo(400);

        // 401s and 403s with credentials that look like keys
        for (String wrong : List.of("test-admin-key-2", "sk_live_wrongkey123", "whsec_guess_123")) {
            secrets.add(wrong);
            assertThat(http().bearer(wrong).get("/api/orders/" + order.orderRef()).status()).isEqualTo(401);
            assertThat(http().bearer(wrong).get("/api/admin/outbox").status()).isEqualTo(401);
        }
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/orders/" + order.orderRef() + "/refunds").status())
                .isEqualTo(403);
        assertThat(admin.get("/api/billing/users/u-none").status()).isEqualTo(404);

        String log = output.getAll();
        assertThat(log).as("the captured log").contains("order created orderRef=" + order.orderRef());
        // listed, not the whole log, so a failure stays readable
        assertThat(secrets.stream().filter(log::contains).toList()).as("secrets found in the log").isEmpty();
        assertThat(log.toLowerCase().contains("authorization:")).as("an Authorization header in the log").isFalse();
        assertThat(log.contains("Stripe-Signature: t=")).as("a Stripe-Signature header in the log").isFalse();
    }
}
