package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.Polls;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.client.MappingBuilder;

/**
 * An abandoned refund the PSP made after all, after a newer refund took the remainder, learnt by the
 * straggler poll (no webhook): nothing is booked, and it is one {@code over_refund} discrepancy with the
 * excess, however often the poll asks.
 */
class RefundOverRefundPollIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    static MappingBuilder refundCreate() {
        return createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")));
    }

    Response refund(String orderRef, String key, String amount) {
        return http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", key).post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
    }

    @Test
    @DisplayName("the straggler poll learns an over-refund: refundedAmount unchanged, one over_refund with the excess")
    void stragglerPollRecordsAnOverRefundOnce() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("20.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-" + order.orderRef(), "COMPLETED", "20.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        psp.resetAll();
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String abandoned = refund(order.orderRef(), "op-1", "8.00").json().path("referenceId").asString();
        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/refunds/" + abandoned + "/abandon", "{}").status())
                .isEqualTo(200);
        psp.resetAll();
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-op2-" + order.orderRef(), null, "REFUND",
                "COMPLETED", "18.00", "EUR")))));
        assertThat(refund(order.orderRef(), "op-2", "18.00").status()).isEqualTo(201);
        String late = "rf-op1-" + order.orderRef();
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(abandoned))
                .willReturn(found(payment(late, abandoned, "REFUND", "COMPLETED", "8.00", "EUR"))));

        for (int pass = 0; pass < 2; pass++) {
            jdbc.sql("""
                    UPDATE psp_refund_attempt SET updated_at = now() - interval '1 hour', last_polled_at = NULL
                     WHERE reference_id = :r""").param("r", abandoned).update();
            polls.run("refund-straggler-poll");
        }

        assertThat(jdbc.sql("SELECT refunded_amount FROM orders WHERE order_ref = :o").param("o", order.orderRef())
                .query(BigDecimal.class).single()).isEqualByComparingTo("18.00");
        assertThat(jdbc.sql("SELECT count(*) FROM discrepancy WHERE psp_payment_id = :p").param("p", late)
                .query(Integer.class).single()).isEqualTo(1);
        assertThat(jdbc.sql("SELECT amount FROM discrepancy WHERE psp_payment_id = :p AND kind = 'over_refund'")
                .param("p", late).query(BigDecimal.class).single()).isEqualByComparingTo("6.00");
    }
}
