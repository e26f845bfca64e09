package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.StatementTrace.traced;
import static com.acme.payments.support.StatementTrace.tracedPass;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.support.StatementTrace;
import com.acme.payments.support.SweepFixtures;
import com.acme.payments.sweep.Sweeps;

/**
 * The round trips of the hot requests, counted from the PostgreSQL driver's own trace (its Execute
 * messages, COMMIT included) on the request threads: each is CPU on both sides, so a change that adds one
 * should fail here and say so, not show up later as a slower benchmark ({@link StatementTrace}). The
 * sweep's pass is counted the same way on its threads (the relay's: OutboxRelayStatementBudgetIntegrationTests).
 */
class StatementBudgetIntegrationTests extends IntegrationTest {

    /**
     * The checkout group's fixed cost: each of its two sweeps (attempts, capture operations) ages IN_FLIGHT
     * rows and claims UNKNOWN ones, each write its own transaction (2 × 2 statements and their COMMITs).
     */
    private static final long SWEEP_PER_PASS = 8;
    /**
     * Per UNKNOWN attempt the PSP shows COMPLETED: one fenced transaction: lease lock, promote, PAID move,
     * {@code order_paid} insert, COMMIT. The reconcile's request is rebuilt from what the claim returned
     * (the order's part included), so no read of its own (was 6, the order read).
     */
    private static final long SWEEP_PER_ATTEMPT = 5;
    private static final long SWEEP_COMMITS_PER_PASS = 4;
    private static final long SWEEP_COMMITS_PER_ATTEMPT = 1;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Sweeps sweeps;

    @Test
    @DisplayName("a checkout: the order read alone (its own transaction), then two (claim; PSP answer applied, the row returned)")
    void checkoutSendsSevenStatementsAndThreeCommits() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("9.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-budget-" + order.orderRef(), "CHECKOUT", "9.00", "EUR")));

        StatementTrace trace = traced(() -> shop.checkout(order.orderRef()));

        assertThat(trace.answer().status()).isEqualTo(200);
        assertThat(trace.answer().json().path("attempt").path("state").asString()).isEqualTo("READY");
        assertThat(trace.statements()).as("statements of the checkout: %s", trace.queries()).isEqualTo(7);
        // the order read runs in autocommit: a transaction too, not counted when only COMMITs were
        assertThat(trace.commits()).as("commits of the checkout: %s", trace.queries()).isEqualTo(3);
    }

    @Test
    @DisplayName("an order look-up is one statement, in autocommit: one transaction, no COMMIT round trip")
    void orderLookUpSendsOneStatement() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("9.00", "EUR");

        StatementTrace trace = traced(() -> shop.order(order.orderRef()));

        assertThat(trace.answer().status()).isEqualTo(200);
        assertThat(trace.statements()).as("statements of the look-up: %s", trace.queries()).isEqualTo(1);
        assertThat(trace.commits()).as("transactions of the look-up: %s", trace.queries()).isEqualTo(1);
    }

    @Test
    @DisplayName("an applied webhook is its receipt alone, then one transaction; its duplicate one statement")
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
        // the receipt (autocommit) and the business transaction
        assertThat(applied.commits()).as("commits of the applied webhook: %s", applied.queries()).isEqualTo(2);
        assertThat(applied.statements()).as("statements of the applied webhook: %s", applied.queries()).isEqualTo(7);
        assertThat(duplicate.answer().json().path("status").asString()).isEqualTo("duplicate");
        assertThat(duplicate.statements()).as("statements of the duplicate: %s", duplicate.queries()).isEqualTo(1);
        assertThat(duplicate.commits()).as("commits of the duplicate (its receipt upsert): %s", duplicate.queries())
                .isEqualTo(1);
    }

    /** N UNKNOWN attempts the PSP shows COMPLETED, resolved by one pass of the checkout group's sweeps. */
    StatementTrace sweepPass(int attempts, String batch) {
        psp.stubFor(findCall().atPriority(10).willReturn(nothingFound())); // other tests' rows
        // other tests' leftovers held as if another instance's pass had them, so the pass below claims ours only
        sweeps.run("checkout"); // ages other tests' IN_FLIGHT leftovers, which its claims then take
        jdbc.sql("UPDATE psp_attempt SET lease_until = now() + interval '1 hour' WHERE state = 'UNKNOWN'").update();
        jdbc.sql("UPDATE psp_payment_operation SET lease_until = now() + interval '1 hour' WHERE state = 'UNKNOWN'")
                .update();
        String prefix = "chk_budget_" + batch + System.nanoTime() + "_";
        List<Long> orders = IntStream.rangeClosed(1, attempts).mapToObj(i -> {
            String reference = prefix + i;
            psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(reference)).willReturn(
                    found(payment("pay-" + reference, reference, "DEPOSIT", "COMPLETED", "5.00", "EUR"))));
            return SweepFixtures.unknownAttempt(jdbc, reference);
        }).toList();

        StatementTrace trace = tracedPass(() -> sweeps.run("checkout"), "checkout-sweep-", "operation-sweep-");

        assertThat(jdbc.sql("SELECT count(*) FROM orders WHERE id IN (:ids) AND status = 'PAID'").param("ids", orders)
                .query(Long.class).single()).as("orders paid by the pass").isEqualTo(attempts);
        return trace;
    }

    @Test
    @DisplayName("a sweep pass of N UNKNOWN attempts: ageing and claims (four commits), then per attempt one transaction: 8 + 5N")
    void sweepPassBudget() {
        StatementTrace five = sweepPass(5, "a");
        StatementTrace ten = sweepPass(10, "b");

        assertThat(five.statements()).as("statements of a 5-attempt pass: %s", five.queries())
                .isEqualTo(SWEEP_PER_PASS + SWEEP_PER_ATTEMPT * 5);
        assertThat(five.commits()).as("commits of a 5-attempt pass: %s", five.queries())
                .isEqualTo(SWEEP_COMMITS_PER_PASS + SWEEP_COMMITS_PER_ATTEMPT * 5);
        assertThat(ten.statements()).as("statements of a 10-attempt pass: %s", ten.queries())
                .isEqualTo(SWEEP_PER_PASS + SWEEP_PER_ATTEMPT * 10);
        assertThat(ten.commits()).as("commits of a 10-attempt pass: %s", ten.queries())
                .isEqualTo(SWEEP_COMMITS_PER_PASS + SWEEP_COMMITS_PER_ATTEMPT * 10);
    }
}
