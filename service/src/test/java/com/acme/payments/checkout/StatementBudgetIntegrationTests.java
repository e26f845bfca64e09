package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.StatementTrace.traced;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.support.StatementTrace;

/**
 * The round trips of the hot requests, counted from the PostgreSQL driver's own trace (its Execute
 * messages, COMMIT included) on the request threads: each is CPU on both sides, so a change that adds one
 * should fail here and say so, not show up later as a slower benchmark ({@link StatementTrace}).
 */
class StatementBudgetIntegrationTests extends IntegrationTest {

    @Test
    @DisplayName("a checkout: the order read alone, then two transactions (claim; PSP answer applied, the row returned)")
    void checkoutSendsSevenStatementsAndTwoCommits() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("9.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-budget-" + order.orderRef(), "CHECKOUT", "9.00", "EUR")));

        StatementTrace trace = traced(() -> shop.checkout(order.orderRef()));

        assertThat(trace.answer().status()).isEqualTo(200);
        assertThat(trace.answer().json().path("attempt").path("state").asString()).isEqualTo("READY");
        assertThat(trace.statements()).as("statements of the checkout: %s", trace.queries()).isEqualTo(7);
        assertThat(trace.commits()).as("commits of the checkout: %s", trace.queries()).isEqualTo(2);
    }

    @Test
    @DisplayName("an order look-up is one statement, no transaction")
    void orderLookUpSendsOneStatement() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("9.00", "EUR");

        StatementTrace trace = traced(() -> shop.order(order.orderRef()));

        assertThat(trace.answer().status()).isEqualTo(200);
        assertThat(trace.statements()).as("statements of the look-up: %s", trace.queries()).isEqualTo(1);
        assertThat(trace.commits()).isZero();
    }

    @Test
    @DisplayName("an applied webhook is one transaction; its duplicate two statements")
    void webhookBudgets() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("9.00", "EUR");
        String paymentId = "pay-budget-hook-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "9.00", "EUR")));
        String reference = shop.checkout(order.orderRef()).json().path("attempt").path("referenceId").asString();
        String body = payment(paymentId, reference, "DEPOSIT", "COMPLETED", "9.00", "EUR");

        StatementTrace applied = traced(() -> shop.webhook(body));
        StatementTrace duplicate = traced(() -> shop.webhook(body));

        assertThat(applied.answer().json().path("status").asString()).isEqualTo("applied");
        assertThat(applied.commits()).as("commits of the applied webhook: %s", applied.queries()).isEqualTo(1);
        assertThat(applied.statements()).as("statements of the applied webhook: %s", applied.queries()).isEqualTo(9);
        assertThat(duplicate.answer().json().path("status").asString()).isEqualTo("duplicate");
        assertThat(duplicate.statements()).as("statements of the duplicate: %s", duplicate.queries()).isEqualTo(2);
    }
}
