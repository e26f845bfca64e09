package com.acme.payments.secondcharge;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.StatementTrace.tracedPass;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.StatementTrace;
import com.acme.payments.sweep.Outcome;
import com.acme.payments.sweep.PollJob;

/**
 * The duplicate-auto-refund poll's batch, counted like the other polls (CheckoutPollStatementBudgetIntegrationTests).
 * The tests' context runs with {@code payments.duplicates.auto-refund} off, so its claim claims nothing: the batch
 * is driven here as {@code Poll.run} drives it, the store's claim of never-refunded charges (one statement) and the
 * poll's ask of each row on the caller's thread, without a second application context.
 */
class DuplicateAutoRefundStatementBudgetIntegrationTests extends IntegrationTest {

    /**
     * The claim: one read of charges without a refund, in autocommit: still a transaction of its own, without
     * the COMMIT round trip (was a read-only transaction, one statement more per batch).
     */
    private static final long PER_BATCH = 1;
    private static final long COMMITS_PER_BATCH = 1;
    /**
     * Per charge the PSP refunds at once (COMPLETED): the claim's transaction (order lock, live-refund read,
     * insert, COMMIT), the settle's (the refund DONE, COMMIT), then the refund read for the answer (its own
     * read-only transaction, COMMIT). What the refund is sent against is the charge the claim
     * returned, no longer read in a read-only transaction of its own (was 10 statements and 4 commits).
     */
    private static final long PER_CHARGE = 8;
    private static final long COMMITS_PER_CHARGE = 3;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    DuplicateChargeStore duplicates;

    @Autowired
    DuplicateChargeOrchestrator orchestrator;

    /** N second charges of N paid orders, never refunded, the PSP refunding each COMPLETED. */
    StatementTrace autoRefundBatch(int n, String batch) {
        String prefix = "dup_budget_" + batch + System.nanoTime() + "_";
        List<String> charges = IntStream.rangeClosed(1, n).mapToObj(i -> {
            String ref = prefix + i;
            long orderId = jdbc.sql("""
                    INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash, paid_amount,
                                        paid_currency, psp_payment_id)
                    VALUES (:ref, 'PAID', 21.00, 'EUR', 'c', sha256(convert_to(:ref, 'UTF8')), 21.00, 'EUR',
                            'pay-' || :ref) RETURNING id""").param("ref", ref).query(Long.class).single();
            jdbc.sql("INSERT INTO duplicate_charge (order_id, psp_payment_id, amount, currency) VALUES (:o, :p, 21.00, 'EUR')")
                    .param("o", orderId).param("p", "dup-" + ref).update();
            psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                    .withRequestBody(matchingJsonPath("$.parentPaymentId", equalTo("dup-" + ref)))
                    .willReturn(okJson(envelope(payment("rf-" + ref, null, "REFUND", "COMPLETED", "21.00", "EUR")))));
            return "dup-" + ref;
        }).toList();
        @SuppressWarnings("unchecked")
        Function<DuplicateCharge, Outcome> ask = ((PollJob<DuplicateCharge>) orchestrator.polls().get(0)).poll();

        StatementTrace trace = tracedPass(() -> duplicates.neverRefunded(10_000).stream()
                .filter(charge -> charges.contains(charge.pspPaymentId())) // other tests' charges are left alone
                .forEach(ask::apply));

        assertThat(jdbc.sql("""
                SELECT count(*) FROM psp_refund_attempt r JOIN duplicate_charge d ON d.id = r.duplicate_charge_id
                 WHERE d.psp_payment_id IN (:p) AND r.state = 'DONE' AND r.requested_by = 'auto-refund'""")
                .param("p", charges).query(Long.class).single()).as("charges refunded by the batch").isEqualTo(n);
        return trace;
    }

    @Test
    @DisplayName("a duplicate-auto-refund batch of N charges: the claim, then per charge three transactions")
    void autoRefundBudget() {
        StatementTrace ten = autoRefundBatch(10, "a");
        StatementTrace twenty = autoRefundBatch(20, "b");

        assertThat(ten.statements()).as("statements of a 10-charge batch: %s", ten.queries())
                .isEqualTo(PER_BATCH + PER_CHARGE * 10);
        assertThat(ten.commits()).as("commits of a 10-charge batch: %s", ten.queries())
                .isEqualTo(COMMITS_PER_BATCH + COMMITS_PER_CHARGE * 10);
        assertThat(twenty.statements()).as("statements of a 20-charge batch: %s", twenty.queries())
                .isEqualTo(PER_BATCH + PER_CHARGE * 20);
        assertThat(twenty.commits()).as("commits of a 20-charge batch: %s", twenty.queries())
                .isEqualTo(COMMITS_PER_BATCH + COMMITS_PER_CHARGE * 20);
    }
}
