package com.acme.payments.chaos;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.acme.payments.stripe.StripeFixtures;
import com.github.tomakehurst.wiremock.WireMockServer;

/**
 * The Stripe API as the chaos run's services see it ({@code stripe.api-base}): answers
 * {@code GET /v1/invoice_payments} for the payment intents the workload registered (the invoice each
 * paid, in the current API's {@code invoice_payment} shape) and an empty list for any other. Started once
 * per JVM on a free port.
 */
final class StripeApiStandIn {

    private static WireMockServer server;

    private StripeApiStandIn() {
    }

    static synchronized String baseUrl() {
        if (server == null) {
            server = new WireMockServer(options().dynamicPort());
            server.start();
            server.stubFor(get(urlPathEqualTo("/v1/invoice_payments")).atPriority(10).willReturn(json(
                    StripeFixtures.noInvoicePayments())));
        }
        return server.baseUrl();
    }

    /** From now on the API says this PaymentIntent paid this invoice. */
    static void link(String paymentIntentId, String invoiceId, long amount) {
        baseUrl();
        server.stubFor(get(urlPathEqualTo("/v1/invoice_payments")).atPriority(1)
                .withQueryParam("payment[payment_intent]", equalTo(paymentIntentId))
                .willReturn(json(StripeFixtures.invoicePayments(invoiceId, paymentIntentId, amount))));
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder json(String body) {
        return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body);
    }
}
