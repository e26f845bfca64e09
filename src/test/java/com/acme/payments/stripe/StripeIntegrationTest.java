package com.acme.payments.stripe;

import java.util.List;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.acme.payments.support.Http;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PspStub;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;

/**
 * Base for Stripe billing tests: the application with a {@link ScriptedHook}, the Stripe API pointed
 * at the shared WireMock server, and helpers to deliver signed events and read our own rows.
 */
@Import(StripeTestHooks.class)
public abstract class StripeIntegrationTest extends IntegrationTest {

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    protected ScriptedHook hook;

    @DynamicPropertySource
    static void stripeApi(DynamicPropertyRegistry registry) {
        registry.add("stripe.api-base", PspStub::baseUrl);
    }

    /** Signs the body as Stripe does, with the test secret and the current time, and posts it. */
    protected Http.Response deliver(String body) {
        return deliver(http(), body);
    }

    protected static Http.Response deliver(Http http, String body) {
        String signature = StripeFixtures.signature(body, System.currentTimeMillis() / 1000, StripeFixtures.SECRET);
        return http.header("Stripe-Signature", signature).post("/webhooks/stripe", body);
    }

    /**
     * The Stripe API stand-in answers {@code GET /v1/invoice_payments} for this PaymentIntent with the
     * invoice it paid (or with an empty list when {@code invoiceId} is null).
     */
    protected void stripeLinks(String paymentIntentId, String invoiceId, long amount) {
        psp.stubFor(WireMock.get(WireMock.urlPathEqualTo("/v1/invoice_payments"))
                .withQueryParam("payment[type]", WireMock.equalTo("payment_intent"))
                .withQueryParam("payment[payment_intent]", WireMock.equalTo(paymentIntentId))
                .withHeader("Authorization", WireMock.equalTo("Bearer sk_test_key"))
                .willReturn(json(invoiceId == null ? StripeFixtures.noInvoicePayments()
                        : StripeFixtures.invoicePayments(invoiceId, paymentIntentId, amount))));
    }

    protected static ResponseDefinitionBuilder json(String body) {
        return WireMock.aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body);
    }

    protected Http admin() {
        return http().bearer("test-admin-key");
    }

    protected long grantCount(String subscriptionId) {
        return jdbc.sql("SELECT count(*) FROM billing_grant WHERE subscription_id = :s").param("s", subscriptionId)
                .query(Long.class).single();
    }

    protected long credits(String userId) {
        return jdbc.sql("SELECT coalesce((SELECT credits FROM billing_user WHERE user_id = :u), 0)")
                .param("u", userId).query(Long.class).single();
    }

    /** Outbox rows written for one source id (the Stripe event id), as {@code <source>:<kind>} keys. */
    protected List<String> outboxKeys(String sourceId) {
        return jdbc.sql("SELECT idempotency_key FROM outbox WHERE idempotency_key LIKE :p ORDER BY id")
                .param("p", sourceId + ":%").query(String.class).list();
    }

    protected String eventState(String eventId) {
        return jdbc.sql("SELECT state FROM processed_webhook_events WHERE id = :id").param("id", eventId)
                .query(String.class).optional().orElse(null);
    }

    /** Moves a claim's age past the expiry: the database clock is the arbiter, so the row is aged. */
    protected void ageClaim(String eventId, String interval) {
        jdbc.sql("""
                UPDATE processed_webhook_events
                SET claimed_at = claimed_at - CAST(:i AS interval),
                    completed_at = completed_at - CAST(:i AS interval)
                WHERE id = :id
                """).param("i", interval).param("id", eventId).update();
    }

    protected String mirrorStatus(String subscriptionId) {
        return jdbc.sql("SELECT status FROM billing_subscription WHERE subscription_id = :s")
                .param("s", subscriptionId).query(String.class).optional().orElse(null);
    }

    protected Long mirrorPeriodStart(String subscriptionId) {
        return jdbc.sql("SELECT current_period_start FROM billing_subscription WHERE subscription_id = :s")
                .param("s", subscriptionId).query(Long.class).optional().orElse(null);
    }

    /** A user with a paid subscription checkout behind them: 500 credits, mirror active. */
    protected void subscribed(String userId, String subscriptionId) {
        String body = StripeFixtures.event(StripeFixtures.id("evt"), "checkout.session.completed",
                StripeFixtures.session(StripeFixtures.id("cs"), "subscription", "paid", userId, subscriptionId, null,
                        2900, null));
        Http.Response response = deliver(body);
        if (response.status() != 200) {
            throw new IllegalStateException("checkout setup failed: " + response.status() + " " + response.body());
        }
    }

    protected static String renewal(String eventId, String subscriptionId, String userId, int month,
            String conversionId) {
        return StripeFixtures.event(eventId, "invoice.paid", StripeFixtures.invoice(StripeFixtures.id("in"),
                "subscription_cycle", subscriptionId, userId, StripeFixtures.month(month),
                StripeFixtures.month(month + 1), 2900, conversionId));
    }
}
