package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.stripe.StripePaymentEvents.event;
import static com.acme.payments.psp.stripe.StripePaymentEvents.session;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.support.StatementTrace.traced;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.support.StatementTrace;

/**
 * The statement budget of the Gateway's hot requests (StatementBudgetIntegrationTests), with Stripe as the
 * PSP: the checkout against the WireMock stand-in answering the session create, and the applied
 * {@code checkout.session.completed} at {@code /webhooks/stripe} and its redelivery. docs/benchmarks.md says what
 * each statement is.
 */
@TestPropertySource(properties = "payments.psp.provider=stripe")
class StripeStatementBudgetIntegrationTests extends StripeIntegrationTest {

    record Checkout(String orderRef, String sessionId, StatementTrace trace) {
    }

    Checkout checkout(String amount, long minor) {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder(amount, "EUR").orderRef();
        String sessionId = "cs_test_" + UUID.randomUUID().toString().replace("-", "");
        psp.stubFor(post(urlPathEqualTo("/v1/checkout/sessions")).willReturn(okJson(
                session(sessionId, null, "ref", orderRef, "open", "unpaid", minor))));
        return new Checkout(orderRef, sessionId, traced(() -> shop.checkout(orderRef)));
    }

    @Test
    @DisplayName("a Stripe checkout: the order read alone (its own transaction), then three (claim; the send log; the session applied)")
    void checkoutSendsNineStatementsAndFourCommits() {
        Checkout checkout = checkout("9.00", 900);
        StatementTrace trace = checkout.trace();

        assertThat(trace.answer().status()).as(trace.answer().body()).isEqualTo(200);
        assertThat(trace.answer().json().path("attempt").path("state").asString()).isEqualTo("READY");
        assertThat(trace.statements()).as("statements of the checkout: %s", trace.queries()).isEqualTo(9);
        // the order read runs in autocommit: a transaction too, not counted when only COMMITs were
        assertThat(trace.commits()).as("commits of the checkout: %s", trace.queries()).isEqualTo(4);
    }

    @Test
    @DisplayName("an applied checkout.session.completed is the claim alone and one transaction, thirteen statements; its redelivery one")
    void webhookBudgets() {
        Checkout checkout = checkout("9.00", 900);
        assertThat(checkout.trace().answer().status()).isEqualTo(200);
        String reference = jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref
                """).param("ref", checkout.orderRef()).query(String.class).single();
        String body = event(id("evt"), "checkout.session.completed",
                session(checkout.sessionId(), id("pi"), reference, checkout.orderRef(), "complete", "paid", 900));

        StatementTrace applied = traced(() -> deliver(body));
        StatementTrace duplicate = traced(() -> deliver(body));

        assertThat(applied.answer().body()).isEqualTo("{\"received\":true}");
        assertThat(new Shop(http()).order(checkout.orderRef()).json().path("status").asString()).isEqualTo("PAID");
        assertThat(duplicate.answer().body()).isEqualTo("{\"received\":true,\"duplicate\":true}");
        // the claim (autocommit) and the business transaction
        assertThat(applied.commits()).as("commits of the applied webhook: %s", applied.queries()).isEqualTo(2);
        assertThat(applied.statements()).as("statements of the applied webhook: %s", applied.queries()).isEqualTo(13);
        assertThat(duplicate.commits()).as("commits of the duplicate (its claim, autocommit): %s", duplicate.queries())
                .isEqualTo(1);
        assertThat(duplicate.statements()).as("statements of the duplicate: %s", duplicate.queries()).isEqualTo(1);
    }
}
