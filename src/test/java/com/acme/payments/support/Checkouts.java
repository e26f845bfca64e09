package com.acme.payments.support;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.payment;

import org.springframework.jdbc.core.simple.JdbcClient;

import com.github.tomakehurst.wiremock.WireMockServer;

/**
 * A checkout through the HTTP API with the PSP stub creating {@code paymentId} in {@code state}, leaving
 * the stub's other mappings (sinks) alone. On a loaded machine the JVM's first PSP call can outlast the
 * test profile's read timeout: the attempt is then UNKNOWN and a retry reconciles it through the look-up,
 * as in production. Either way the PSP sees exactly one create call.
 */
public final class Checkouts {

    private Checkouts() {
    }

    public static void checkOut(Shop shop, WireMockServer psp, JdbcClient jdbc, String orderRef, String paymentId,
            String state, String amount) {
        psp.stubFor(createCall().willReturn(created(paymentId, state, amount, "EUR")));
        for (int i = 0; i < 3; i++) {
            if (shop.checkout(orderRef).status() == 200) {
                return;
            }
            String referenceId = jdbc.sql("""
                    SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                     WHERE o.order_ref = :ref AND a.state IN ('IN_FLIGHT', 'UNKNOWN', 'READY')""")
                    .param("ref", orderRef).query(String.class).single();
            psp.stubFor(findCall().willReturn(found(payment(paymentId, referenceId, "DEPOSIT", state, amount, "EUR"))));
        }
        throw new AssertionError("could not check out " + orderRef);
    }

    /** A new EUR order paid by one COMPLETED payment {@code pay-<orderRef>}; the stub's mappings are reset after. */
    public static String paidOrder(Shop shop, WireMockServer psp, JdbcClient jdbc, String amount) {
        String orderRef = shop.createOrder(amount, "EUR").orderRef();
        checkOut(shop, psp, jdbc, orderRef, "pay-" + orderRef, "COMPLETED", amount);
        if (!"PAID".equals(shop.order(orderRef).json().path("status").asString())) {
            throw new AssertionError(orderRef + " is not PAID after its checkout");
        }
        psp.resetAll();
        return orderRef;
    }
}
