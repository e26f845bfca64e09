package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.sweep.DatabaseGauges;

import io.micrometer.core.instrument.MeterRegistry;

/** {@code payments.attempts.open{kind, state}}: the dashboard's "attempts and refunds by state". */
class OpenAttemptsGaugeIntegrationTests extends IntegrationTest {

    @Autowired
    MeterRegistry registry;
    @Autowired
    DatabaseGauges gauges;
    @Autowired
    JdbcClient jdbc;

    @Test
    @DisplayName("an UNKNOWN attempt and an UNKNOWN refund are counted by kind and state, and leave the count when settled")
    void openAttemptsAndRefundsAreCountedByKindAndState() {
        gauges.refresh();
        double attempts = open("checkout", "UNKNOWN");
        double refunds = open("refund", "UNKNOWN");

        Shop shop = new Shop(http());
        var order = shop.createOrder("12.00", "EUR");
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String reference = shop.checkout(order.orderRef()).json().path("referenceId").asString();
        jdbc.sql("""
                INSERT INTO psp_refund_attempt (order_id, refund_key, reference_id, amount, currency, state)
                SELECT id, 'gauge-' || order_ref, 'rfd-gauge-' || order_ref, 1.00, 'EUR', 'UNKNOWN'
                  FROM orders WHERE order_ref = :ref
                """).param("ref", order.orderRef()).update();
        gauges.refresh();

        assertThat(open("checkout", "UNKNOWN")).isEqualTo(attempts + 1);
        assertThat(open("refund", "UNKNOWN")).isEqualTo(refunds + 1);

        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/attempts/" + reference + "/abandon", "{}").status())
                .isEqualTo(200);
        jdbc.sql("UPDATE psp_refund_attempt SET state = 'FAILED' WHERE reference_id = :r")
                .param("r", "rfd-gauge-" + order.orderRef()).update();
        gauges.refresh();

        assertThat(open("checkout", "UNKNOWN")).isEqualTo(attempts);
        assertThat(open("refund", "UNKNOWN")).isEqualTo(refunds);
        assertThat(registry.find("payments.attempts.open").gauges()).hasSize(5);
    }

    private double open(String kind, String state) {
        return registry.get("payments.attempts.open").tag("kind", kind).tag("state", state).gauge().value();
    }
}
