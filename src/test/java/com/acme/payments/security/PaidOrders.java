package com.acme.payments.security;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.payment;

import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.github.tomakehurst.wiremock.WireMockServer;

/**
 * Checks an order out with the PSP stub answering a state. On a loaded machine the first PSP call of a
 * JVM can outlast the test profile's 4 s read timeout: the attempt is then UNKNOWN, and a retry with
 * the stub's look-up answering the payment reconciles it, as in production.
 */
final class PaidOrders {

    private PaidOrders() {
    }

    static void checkout(Http caller, WireMockServer psp, JdbcClient jdbc, String orderRef, String state, String amount) {
        psp.resetAll();
        psp.stubFor(createCall().willReturn(created("pay-" + orderRef, state, amount, "EUR")));
        for (int i = 0; i < 3; i++) {
            if (caller.post("/api/orders/" + orderRef + "/checkout", "{}").status() == 200) {
                return;
            }
            psp.stubFor(findCall().willReturn(found(payment("pay-" + orderRef, openAttempt(jdbc, orderRef), "DEPOSIT",
                    state, amount, "EUR"))));
        }
        throw new AssertionError("could not check out " + orderRef);
    }

    static String openAttempt(JdbcClient jdbc, String orderRef) {
        return jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                WHERE o.order_ref = :ref AND a.state IN ('IN_FLIGHT', 'UNKNOWN', 'READY')""").param("ref", orderRef)
                .query(String.class).single();
    }
}
