package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.Polls;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.support.WatchGaps;

/**
 * Found by the long chaos run (seed -8271552944282914841, order {@code chaos-x-8d358a6bf72e2fe7-59}): an
 * operator abandoned an UNKNOWN attempt the PSP did not show, the customer paid again, then the hidden
 * payment appeared and completed — and its webhook never arrived (the PSP sends it once, to the instance
 * that created the payment). Nothing asked the PSP about an abandoned attempt again, so the second charge
 * was never flagged. The abandoned-attempt watch now asks by the stored reference for
 * {@code payments.duplicates.abandoned-watch} after the abandon and flags what it finds, exactly once.
 */
class AbandonedAttemptWatchIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    Shop shop() {
        return new Shop(http());
    }

    @BeforeEach
    void othersShowNothing() {
        // abandoned attempts of other test classes may be claimed too: for them the PSP shows nothing
        psp.stubFor(findCall().willReturn(nothingFound()));
    }

    /** An UNKNOWN attempt (answer lost, PSP shows nothing), abandoned by an operator: its reference. */
    String abandonedAttempt(String orderRef) {
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        Response answer = shop().checkout(orderRef);
        assertThat(answer.status()).as(answer.body()).isEqualTo(409);
        String reference = answer.json().path("referenceId").asString();
        Response closed = http().bearer(Shop.ADMIN_KEY).post("/api/admin/attempts/" + reference + "/abandon",
                "{\"reason\":\"PSP: never seen\"}");
        assertThat(closed.status()).as(closed.body()).isEqualTo(200);
        return reference;
    }

    void pspShows(String reference, String paymentId, String state, String amount) {
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(reference))
                .willReturn(found(payment(paymentId, reference, "DEPOSIT", state, amount, "EUR"))));
    }

    int asked(String reference) {
        return psp.findAll(getRequestedFor(urlPathEqualTo("/api/v1/payments"))
                .withQueryParam("referenceId.eq", equalTo(reference))).size();
    }

    int duplicateCharges(String paymentId) {
        return jdbc.sql("SELECT count(*) FROM duplicate_charge WHERE psp_payment_id = :p").param("p", paymentId)
                .query(Integer.class).single();
    }

    int duplicateEffects(String paymentId) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'duplicate_charge' AND idempotency_key = :key")
                .param("key", paymentId + ":duplicate_charge").query(Integer.class).single();
    }

    /** Makes the attempt due again (its lease is payments.stragglers.grace, 15 min in tests). */
    void leaseExpires(String reference) {
        jdbc.sql("UPDATE psp_attempt SET last_polled_at = now() - interval '1 hour' WHERE reference_id = :r")
                .param("r", reference).update();
    }

    boolean watchClosed(String reference) {
        return jdbc.sql("SELECT watch_closed_at IS NOT NULL FROM psp_attempt WHERE reference_id = :r")
                .param("r", reference).query(Boolean.class).single();
    }

    @Test
    @DisplayName("an abandoned attempt's payment that completes after the retry paid, webhook never sent, is flagged once by the watch")
    void hiddenPaymentWhoseWebhookNeverCameIsFlaggedOnce() {
        var order = shop().createOrder("23.00", "EUR");
        String hiddenRef = abandonedAttempt(order.orderRef());
        String paid = "pay-w2-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paid, "COMPLETED", "23.00", "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);

        // the hidden payment appears and completes at the PSP; its webhook never comes
        String hidden = "pay-w1-" + order.orderRef();
        pspShows(hiddenRef, hidden, "COMPLETED", "23.00");
        polls.run("abandoned-watch");

        assertThat(duplicateCharges(hidden)).isEqualTo(1);
        assertThat(duplicateEffects(hidden)).isEqualTo(1);
        Response view = shop().order(order.orderRef());
        assertThat(view.json().path("status").asString()).isEqualTo("PAID");
        assertThat(view.json().path("pspPaymentId").asString()).as("the order never moves for it").isEqualTo(paid);
        assertThat(watchClosed(hiddenRef)).as("final at the PSP: watched no more").isTrue();

        int askedBefore = asked(hiddenRef);
        leaseExpires(hiddenRef);
        polls.run("abandoned-watch");
        assertThat(asked(hiddenRef)).as("a closed watch asks no more").isEqualTo(askedBefore);
        Response late = shop().webhook(payment(hidden, hiddenRef, "DEPOSIT", "COMPLETED", "23.00", "EUR"));
        assertThat(late.json().path("status").asString()).as("the webhook after all").isEqualTo("duplicate");
        assertThat(duplicateCharges(hidden)).as("flagged exactly once").isEqualTo(1);
        assertThat(duplicateEffects(hidden)).isEqualTo(1);
    }

    @Test
    @DisplayName("the watch asks again while the PSP shows nothing or an open payment, once per lease, and only within its window")
    void watchKeepsAskingWithinItsWindowOnly() {
        var order = shop().createOrder("24.00", "EUR");
        String hiddenRef = abandonedAttempt(order.orderRef());
        String hidden = "pay-w3-" + order.orderRef();

        polls.run("abandoned-watch");
        assertThat(asked(hiddenRef)).as("asked while the PSP shows nothing").isGreaterThan(0);
        int afterFirst = asked(hiddenRef);
        polls.run("abandoned-watch");
        assertThat(asked(hiddenRef)).as("leased: not again within payments.stragglers.grace").isEqualTo(afterFirst);

        pspShows(hiddenRef, hidden, "CHECKOUT", "24.00");
        leaseExpires(hiddenRef);
        polls.run("abandoned-watch");
        assertThat(watchClosed(hiddenRef)).as("an open payment keeps the watch").isFalse();
        assertThat(duplicateCharges(hidden)).isZero();

        pspShows(hiddenRef, hidden, "COMPLETED", "24.00");
        leaseExpires(hiddenRef);
        polls.run("abandoned-watch");
        assertThat(duplicateCharges(hidden)).as("no retry: a second charge all the same").isEqualTo(1);
        assertThat(shop().order(order.orderRef()).json().path("status").asString()).isEqualTo("AWAITING_PAYMENT");

        var old = shop().createOrder("25.00", "EUR");
        String oldRef = abandonedAttempt(old.orderRef());
        jdbc.sql("UPDATE psp_attempt SET abandoned_at = now() - interval '31 days' WHERE reference_id = :r")
                .param("r", oldRef).update();
        int oldAsked = asked(oldRef);
        pspShows(oldRef, "pay-w4-" + old.orderRef(), "COMPLETED", "25.00");
        polls.run("abandoned-watch");
        assertThat(asked(oldRef)).as("past payments.duplicates.abandoned-watch (30d)").isEqualTo(oldAsked);
    }

    @Test
    @DisplayName("an abandoned attempt is watched for 30 days, at gaps growing from payments.stragglers.grace to a day")
    void watchGapsGrowToADayForAMonth() {
        var order = shop().createOrder("26.00", "EUR");
        String reference = abandonedAttempt(order.orderRef());
        SoftAssertions soft = new SoftAssertions();
        for (WatchGaps.Case c : WatchGaps.CASES) {
            jdbc.sql("""
                    UPDATE psp_attempt SET abandoned_at = now() - CAST(:abandoned AS interval),
                           last_polled_at = now() - CAST(:polled AS interval)
                     WHERE reference_id = :r""").param("abandoned", c.abandonedAgo()).param("polled", c.polledAgo())
                    .param("r", reference).update();
            int before = asked(reference);
            polls.run("abandoned-watch");
            soft.assertThat(asked(reference) > before).as("abandoned %s ago, asked %s ago: %s", c.abandonedAgo(),
                    c.polledAgo(), c.why()).isEqualTo(c.asked());
        }
        soft.assertAll();
    }
}
