package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PspFixtures;
import com.acme.payments.support.Shop;
import com.acme.payments.sweep.Sweeps;

class RefundSweepIntegrationTests extends IntegrationTest {

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

    /** Older than the in-flight age, and any sweep lease on it run out. */
    void backdate(Refund refund) {
        jdbc.sql("""
                UPDATE psp_refund_attempt SET updated_at = now() - interval '10 minutes', lease_until = NULL
                 WHERE id = :id""")
                .param("id", refund.id()).update();
    }

    BigDecimal refunded(long orderId) {
        return jdbc.sql("SELECT refunded_amount FROM orders WHERE id = :id").param("id", orderId).query(BigDecimal.class)
                .single();
    }

    @Test
    @DisplayName("a refund whose owner died mid-POST is aged, then settled by the sweep without a second POST")
    void deadRefundOwnerIsSettledBySweep() {
        psp.stubFor(findCall().atPriority(10).willReturn(nothingFound()));
        long orderId = paidOrder();
        String ref = "rfd_dead_" + System.nanoTime();
        Refund refund = claims.claim(orderId, "k", new BigDecimal("12.00"), "EUR", ref, "admin", null).refund();
        backdate(refund);
        sweeps.run("refund");
        assertThat(refunds.find(refund.id()).orElseThrow().state()).isEqualTo(RefundState.UNKNOWN);

        backdate(refund);
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                .willReturn(found(payment("rf-" + ref, ref, "REFUND", "COMPLETED", "12.00", "EUR"))));
        sweeps.run("refund");

        assertThat(refunds.find(refund.id()).orElseThrow().state()).isEqualTo(RefundState.DONE);
        assertThat(refunded(orderId)).isEqualByComparingTo("12.00");
        assertThat(PspFixtures.createCount(psp)).as("only the checkout's POST").isEqualTo(1);
    }

    @Test
    @DisplayName("the sweep looks at once: a refund just turned UNKNOWN is resolved by the next pass, not one lease later")
    void justUnknownRefundIsResolvedByTheNextPass() {
        psp.stubFor(findCall().atPriority(10).willReturn(nothingFound()));
        long orderId = paidOrder();
        String ref = "rfd_now_" + System.nanoTime();
        Refund refund = claims.claim(orderId, "k", new BigDecimal("12.00"), "EUR", ref, "admin", null).refund();
        refunds.markUnknown(refund.id()); // updated_at = now(): no backdating, no lease to wait out
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                .willReturn(found(payment("rf-" + ref, ref, "REFUND", "COMPLETED", "12.00", "EUR"))));

        sweeps.run("refund");

        assertThat(refunds.find(refund.id()).orElseThrow().state()).isEqualTo(RefundState.DONE);
        assertThat(refunded(orderId)).isEqualByComparingTo("12.00");
    }

    @Test
    @DisplayName("an UNKNOWN refund the PSP declined is FAILED by the sweep and its reservation released once")
    void declinedUnknownRefundReleasesOnce() {
        psp.stubFor(findCall().atPriority(10).willReturn(nothingFound()));
        long orderId = paidOrder();
        String ref = "rfd_decl_" + System.nanoTime();
        Refund refund = claims.claim(orderId, "k", new BigDecimal("7.00"), "EUR", ref, "admin", null).refund();
        refunds.markUnknown(refund.id());
        backdate(refund);
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                .willReturn(found(payment("rf-" + ref, ref, "REFUND", "DECLINED", "7.00", "EUR"))));
        sweeps.run("refund");
        backdate(refund);
        sweeps.run("refund");
        assertThat(refunds.find(refund.id()).orElseThrow().state()).isEqualTo(RefundState.FAILED);
        assertThat(refunded(orderId)).isEqualByComparingTo("0");
    }
}
