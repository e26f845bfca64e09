package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.support.StatementTrace;
import com.acme.payments.sweep.Sweeps;

/**
 * The refund sweep's pass, counted like the checkout sweep's (StatementBudgetIntegrationTests): the driver's
 * Execute messages on the job's threads, at two batch sizes, so the fixed and the per-refund part are both
 * budgets.
 */
class RefundSweepStatementBudgetIntegrationTests extends IntegrationTest {

    /** The refund group's one sweep: ages IN_FLIGHT refunds and claims UNKNOWN ones, each its own commit. */
    private static final long PER_PASS = 4;
    private static final long COMMITS_PER_PASS = 2;
    /**
     * Per UNKNOWN refund the PSP shows COMPLETED: one fenced transaction (lease lock, the refund DONE, COMMIT;
     * its amount was reserved at the claim). What the create was sent against comes with the claim (it
     * was 5 and 2 commits, the read of the refund's order and charge in a read-only transaction of its own).
     */
    private static final long PER_REFUND = 3;
    private static final long COMMITS_PER_REFUND = 1;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RefundStore refunds;

    @Autowired
    RefundClaimApplier claims;

    @Autowired
    Sweeps sweeps;

    long paidOrder() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("30.00", "EUR");
        com.acme.payments.support.Checkouts.checkOut(shop, psp, jdbc, order.orderRef(), "pay-" + order.orderRef(),
                "COMPLETED", "30.00");
        return jdbc.sql("SELECT id FROM orders WHERE order_ref = :r").param("r", order.orderRef()).query(Long.class).single();
    }

    /** N UNKNOWN refunds of N paid orders, the PSP showing each COMPLETED, resolved by one refund pass. */
    StatementTrace refundPass(int n, String batch) {
        psp.stubFor(findCall().atPriority(10).willReturn(nothingFound())); // other tests' rows
        // other tests' leftovers held as if another instance's pass had them, so the pass below claims ours only
        sweeps.run("refund"); // ages other tests' IN_FLIGHT leftovers, which its claim then takes
        jdbc.sql("UPDATE psp_refund_attempt SET lease_until = now() + interval '1 hour' WHERE state = 'UNKNOWN'")
                .update();
        String prefix = "rfd_budget_" + batch + System.nanoTime() + "_";
        List<Long> ids = IntStream.rangeClosed(1, n).mapToObj(i -> {
            String ref = prefix + i;
            Refund refund = claims.claim(paidOrder(), "k", new BigDecimal("12.00"), "EUR", ref, "admin", null).refund();
            refunds.markUnknown(refund.id());
            jdbc.sql("UPDATE psp_refund_attempt SET updated_at = now() - interval '10 minutes' WHERE id = :id")
                    .param("id", refund.id()).update();
            psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                    .willReturn(found(payment("rf-" + ref, ref, "REFUND", "COMPLETED", "12.00", "EUR"))));
            return refund.id();
        }).toList();

        StatementTrace trace = StatementTrace.tracedPass(() -> sweeps.run("refund"), "refund-sweep-");

        assertThat(ids).allSatisfy(id -> assertThat(refunds.find(id).orElseThrow().state()).isEqualTo(RefundState.DONE));
        return trace;
    }

    @Test
    @DisplayName("a refund sweep pass of N UNKNOWN refunds: ageing and claim (two commits), then per refund one transaction")
    void refundPassBudget() {
        StatementTrace two = refundPass(2, "a");
        StatementTrace four = refundPass(4, "b");

        assertThat(two.statements()).as("statements of a 2-refund pass: %s", two.queries()).isEqualTo(PER_PASS + PER_REFUND * 2);
        assertThat(two.commits()).as("commits of a 2-refund pass: %s", two.queries())
                .isEqualTo(COMMITS_PER_PASS + COMMITS_PER_REFUND * 2);
        assertThat(four.statements()).as("statements of a 4-refund pass: %s", four.queries())
                .isEqualTo(PER_PASS + PER_REFUND * 4);
        assertThat(four.commits()).as("commits of a 4-refund pass: %s", four.queries())
                .isEqualTo(COMMITS_PER_PASS + COMMITS_PER_REFUND * 4);
    }
}
