package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.Polls;
import com.acme.payments.common.web.Problems;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStore;
import com.acme.payments.support.Checkouts;
import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.support.WatchGaps;
import com.github.tomakehurst.wiremock.client.MappingBuilder;

/**
 * A refund's final truth arrives late (PENDING then DECLINED), an UNKNOWN refund has an exit, every
 * refund names who asked, and the currency is checked under the order lock.
 */
class RefundLateTruthsIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    @Autowired
    RefundOrchestrator orchestrator;

    @Autowired
    OrderStore orders;

    String paidOrder(String amount) {
        return Checkouts.paidOrder(new Shop(http()), psp, jdbc, amount);
    }

    Response refund(String credential, String orderRef, String key, String amount) {
        return http().bearer(credential).header("Idempotency-Key", key).post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\",\"reason\":\"customer asked\"}");
    }

    static MappingBuilder refundCreate() {
        return createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")));
    }

    static String refundPayment(String id, String reference, String state, String amount) {
        return payment(id, reference, "REFUND", state, amount, "EUR");
    }

    /** A refund whose create call got a 503 and that the PSP's search does not show, abandoned by an operator. */
    String abandonedRefund(String orderRef, String key, String amount) {
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String reference = refund(Shop.ADMIN_KEY, orderRef, key, amount).json().path("referenceId").asString();
        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/refunds/" + reference + "/abandon", "{}").status())
                .isEqualTo(200);
        return reference;
    }

    String refundState(String reference) {
        return jdbc.sql("SELECT state FROM psp_refund_attempt WHERE reference_id = :r").param("r", reference)
                .query(String.class).single();
    }

    BigDecimal refunded(String orderRef) {
        return jdbc.sql("SELECT refunded_amount FROM orders WHERE order_ref = :ref").param("ref", orderRef)
                .query(BigDecimal.class).single();
    }

    int refundFailedEffects(String paymentId) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'refund_failed' AND idempotency_key = :k")
                .param("k", paymentId + ":refund_failed").query(Integer.class).single();
    }

    @Test
    @DisplayName("a refund accepted PENDING and DECLINED later becomes FAILED, releases its amount once and sends refund_failed once")
    void pendingThenDeclinedRefundFailsAndReleasesOnce() {
        String orderRef = paidOrder("40.00");
        String rf = "rf-pd-" + orderRef;
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment(rf, null, "PENDING", "25.00")))));
        Response accepted = refund("test-anna-key", orderRef, "pd-1", "25.00");
        assertThat(accepted.status()).isEqualTo(201);
        assertThat(accepted.json().path("state").asString()).isEqualTo("DONE");
        assertThat(accepted.json().path("pspState").asString()).isEqualTo("PENDING");
        assertThat(accepted.json().path("requestedBy").asString()).isEqualTo("anna");
        assertThat(refunded(orderRef)).isEqualByComparingTo("25.00");
        String reference = accepted.json().path("referenceId").asString();

        Shop shop = new Shop(http());
        Response declined = shop.webhook(refundPayment(rf, reference, "DECLINED", "25.00"));
        assertThat(declined.json().path("status").asString()).isEqualTo("applied");
        assertThat(refunded(orderRef)).isEqualByComparingTo("0");
        Response again = shop.webhook(refundPayment(rf, reference, "CANCELLED", "25.00"));
        assertThat(again.json().path("status").asString()).isEqualTo("duplicate");
        assertThat(refunded(orderRef)).as("released exactly once").isEqualByComparingTo("0");
        assertThat(refundFailedEffects(rf)).isEqualTo(1);

        Response view = http().bearer(Shop.ADMIN_KEY).get("/api/orders/" + orderRef + "/refunds");
        assertThat(view.json().get(0).path("state").asString()).isEqualTo("FAILED");
        assertThat(view.json().get(0).path("errorCode").asString()).isEqualTo("card_declined");
        assertThat(view.json().get(0).path("pspState").asString()).isEqualTo("DECLINED");
        assertThat(shop.order(orderRef).json().path("refundedAmount").asString()).isEqualTo("0.00");
        // the remainder is whole again: the full amount can be refunded
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-pd2-" + orderRef, null, "COMPLETED", "40.00")))));
        assertThat(refund(Shop.ADMIN_KEY, orderRef, "pd-2", "40.00").json().path("requestedBy").asString())
                .isEqualTo("admin");
    }

    @Test
    @DisplayName("the straggler poll reads a DONE refund whose PSP state is not final and fails it on DECLINED")
    void stragglerPollFailsADoneRefundWhoseDeclineNeverCameByWebhook() {
        String orderRef = paidOrder("30.00");
        String rf = "rf-sp-" + orderRef;
        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment(rf, null, "PENDING", "10.00")))));
        assertThat(refund(Shop.ADMIN_KEY, orderRef, "sp-1", "10.00").status()).isEqualTo(201);
        jdbc.sql("UPDATE psp_refund_attempt SET updated_at = now() - interval '1 hour' WHERE psp_payment_id = :p")
                .param("p", rf).update();
        psp.stubFor(getCall(rf).willReturn(okJson(envelope(refundPayment(rf, null, "DECLINED", "10.00")))));

        polls.run("refund-straggler-poll");

        assertThat(jdbc.sql("SELECT state FROM psp_refund_attempt WHERE psp_payment_id = :p").param("p", rf)
                .query(String.class).single()).isEqualTo("FAILED");
        assertThat(refunded(orderRef)).isEqualByComparingTo("0");
        assertThat(refundFailedEffects(rf)).isEqualTo(1);
    }

    @Test
    @DisplayName("an UNKNOWN refund the PSP never shows is abandoned: FAILED/abandoned, reservation released, later refunds unblocked")
    void unknownRefundIsAbandonedAfterAskingThePspAgain() {
        String orderRef = paidOrder("50.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response unknown = refund(Shop.ADMIN_KEY, orderRef, "ab-1", "20.00");
        assertThat(unknown.status()).isEqualTo(409);
        String reference = unknown.json().path("referenceId").asString();
        assertThat(refund(Shop.ADMIN_KEY, orderRef, "ab-2", "5.00").problemSlug()).isEqualTo("refund-blocked-by-unknown");

        Http anna = http().bearer("test-anna-key");
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(reference))
                .willReturn(found(refundPayment("rf-ab-" + orderRef, reference, "PENDING", "20.00"))));
        Response shown = anna.post("/api/admin/refunds/" + reference + "/abandon", "{}");
        assertThat(shown.status()).as("the PSP shows it now: it settles by that truth").isEqualTo(409);
        assertThat(shown.problemSlug()).isEqualTo("refund-not-open");
        assertThat(refunded(orderRef)).isEqualByComparingTo("20.00");

        jdbc.sql("UPDATE psp_refund_attempt SET state = 'UNKNOWN' WHERE reference_id = :r").param("r", reference).update();
        psp.resetAll();
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response abandoned = anna.post("/api/admin/refunds/" + reference + "/abandon", "{\"reason\":\"PSP support: never created\"}");
        assertThat(abandoned.status()).as(abandoned.body()).isEqualTo(200);
        assertThat(abandoned.json().path("state").asString()).isEqualTo("FAILED");
        assertThat(abandoned.json().path("errorCode").asString()).isEqualTo("abandoned");
        assertThat(abandoned.json().path("abandonedBy").asString()).isEqualTo("anna");
        assertThat(refunded(orderRef)).isEqualByComparingTo("0");
        Response twice = anna.post("/api/admin/refunds/" + reference + "/abandon", "{}");
        assertThat(twice.status()).isEqualTo(409);
        assertThat(twice.problemSlug()).isEqualTo("refund-not-open");
        assertThat(refunded(orderRef)).isEqualByComparingTo("0");
        assertThat(anna.post("/api/admin/refunds/rfd_nope/abandon", "{}").status()).isEqualTo(404);

        psp.stubFor(refundCreate().willReturn(okJson(envelope(refundPayment("rf-ab3-" + orderRef, null, "COMPLETED", "50.00")))));
        assertThat(refund(Shop.ADMIN_KEY, orderRef, "ab-3", "50.00").status()).as("no longer blocked").isEqualTo(201);
    }

    @Test
    @DisplayName("a refund a sweep pass holds is not abandoned (409) until the pass lets it go: it may be replaying it")
    void refundHeldBySweepPassIsNotAbandoned() {
        String orderRef = paidOrder("50.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String reference = refund(Shop.ADMIN_KEY, orderRef, "held-1", "20.00").json().path("referenceId").asString();
        // what a pass's claim writes (RefundStore.CLAIM_UNKNOWN), on this row only
        jdbc.sql("""
                UPDATE psp_refund_attempt SET lease_version = lease_version + 1, lease_until = now() + interval '2 minutes'
                 WHERE reference_id = :r AND state = 'UNKNOWN'""").param("r", reference).update();

        Response held = http().bearer(Shop.ADMIN_KEY).post("/api/admin/refunds/" + reference + "/abandon", "{}");
        assertThat(held.status()).as(held.body()).isEqualTo(409);
        assertThat(held.problemSlug()).isEqualTo("refund-not-open");
        assertThat(jdbc.sql("SELECT state FROM psp_refund_attempt WHERE reference_id = :r").param("r", reference)
                .query(String.class).single()).isEqualTo("UNKNOWN");
        assertThat(refunded(orderRef)).isEqualByComparingTo("20.00");

        jdbc.sql("UPDATE psp_refund_attempt SET lease_until = NULL WHERE reference_id = :r").param("r", reference).update();
        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/refunds/" + reference + "/abandon", "{}").status())
                .as("the pass let go").isEqualTo(200);
        assertThat(refunded(orderRef)).isEqualByComparingTo("0");
    }

    @Test
    @DisplayName("an abandoned refund the PSP did make after all is DONE again and reserved again")
    void abandonedRefundThatAppearsCompletedIsBookedAgain() {
        String orderRef = paidOrder("20.00");
        String reference = abandonedRefund(orderRef, "rv-1", "8.00");
        assertThat(refunded(orderRef)).isEqualByComparingTo("0");
        Response late = new Shop(http()).webhook(refundPayment("rf-rv-" + orderRef, reference, "COMPLETED", "8.00"));
        assertThat(late.json().path("status").asString()).isEqualTo("applied");
        assertThat(refunded(orderRef)).isEqualByComparingTo("8.00");
        assertThat(refundState(reference)).isEqualTo("DONE");
    }

    @Test
    @DisplayName("an abandoned refund the PSP made after all is learnt by the straggler poll when its webhook never comes")
    void abandonedRefundWhoseWebhookNeverComesIsLearntByThePoll() {
        String orderRef = paidOrder("20.00");
        String reference = abandonedRefund(orderRef, "aw-1", "8.00");
        assertThat(refunded(orderRef)).isEqualByComparingTo("0");
        // past the grace period; the PSP's search now shows the refund it made after all, and no webhook comes
        jdbc.sql("UPDATE psp_refund_attempt SET updated_at = now() - interval '1 hour' WHERE reference_id = :r")
                .param("r", reference).update();
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(reference))
                .willReturn(found(refundPayment("rf-aw-" + orderRef, reference, "COMPLETED", "8.00"))));

        polls.run("refund-straggler-poll");

        assertThat(refundState(reference)).isEqualTo("DONE");
        assertThat(refunded(orderRef)).as("booked again: the money has left").isEqualByComparingTo("8.00");
    }

    @Test
    @DisplayName("an abandoned refund is no longer asked about once payments.refunds.abandoned-watch has passed")
    void abandonedRefundIsNotAskedAboutAfterTheWatch() {
        String orderRef = paidOrder("20.00");
        String reference = abandonedRefund(orderRef, "aw-2", "8.00");
        jdbc.sql("""
                UPDATE psp_refund_attempt SET updated_at = now() - interval '31 days', abandoned_at = now() - interval '31 days'
                 WHERE reference_id = :r""").param("r", reference).update();
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(reference))
                .willReturn(found(refundPayment("rf-aw2-" + orderRef, reference, "COMPLETED", "8.00"))));

        polls.run("refund-straggler-poll");

        assertThat(refundState(reference)).isEqualTo("FAILED");
        assertThat(jdbc.sql("SELECT last_polled_at IS NULL FROM psp_refund_attempt WHERE reference_id = :r")
                .param("r", reference).query(Boolean.class).single()).as("not claimed").isTrue();
    }

    @Test
    @DisplayName("an abandoned refund is watched for 30 days, at gaps growing from payments.stragglers.grace to a day")
    void abandonedRefundWatchGapsGrowToADayForAMonth() {
        String orderRef = paidOrder("20.00");
        String reference = abandonedRefund(orderRef, "aw-3", "8.00");
        psp.stubFor(findCall().willReturn(nothingFound()));
        SoftAssertions soft = new SoftAssertions();
        for (WatchGaps.Case c : WatchGaps.CASES) {
            jdbc.sql("""
                    UPDATE psp_refund_attempt SET abandoned_at = now() - CAST(:abandoned AS interval),
                           updated_at = now() - CAST(:abandoned AS interval),
                           last_polled_at = now() - CAST(:polled AS interval)
                     WHERE reference_id = :r""").param("abandoned", c.abandonedAgo()).param("polled", c.polledAgo())
                    .param("r", reference).update();
            int before = asked(reference);
            polls.run("refund-straggler-poll");
            soft.assertThat(asked(reference) > before).as("abandoned %s ago, asked %s ago: %s", c.abandonedAgo(),
                    c.polledAgo(), c.why()).isEqualTo(c.asked());
        }
        soft.assertAll();
        assertThat(refundState(reference)).isEqualTo("FAILED");
    }

    int asked(String reference) {
        return psp.findAll(getRequestedFor(urlPathEqualTo("/api/v1/payments"))
                .withQueryParam("referenceId.eq", equalTo(reference))).size();
    }

    @Test
    @DisplayName("the refund currency is checked under the order lock: an order read before it was PAID proves nothing")
    void refundCurrencyIsCheckedUnderTheOrderLock() {
        Shop shop = new Shop(http());
        var created = shop.createOrder("10.00", "EUR");
        Order before = orders.findByRef(created.orderRef()).orElseThrow(); // AWAITING_PAYMENT, no paid currency
        psp.stubFor(createCall().willReturn(created("pay-" + created.orderRef(), "COMPLETED", "10.00", "EUR")));
        assertThat(shop.checkout(created.orderRef()).status()).isEqualTo(200);

        assertThatThrownBy(() -> orchestrator.refund(before, "usd-key", new BigDecimal("5.00"), "USD", "admin", null))
                .isInstanceOf(Problems.ValidationFailed.class);
        assertThat(refunded(created.orderRef())).isEqualByComparingTo("0");
        assertThat(jdbc.sql("SELECT count(*) FROM psp_refund_attempt WHERE refund_key = 'usd-key'").query(Integer.class)
                .single()).isZero();
    }

    @Test
    @DisplayName("GET /api/admin/unresolved lists an UNKNOWN refund with its order")
    void unresolvedListsUnknownRefunds() {
        String orderRef = paidOrder("11.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String reference = refund(Shop.ADMIN_KEY, orderRef, "ur-1", "1.00").json().path("referenceId").asString();
        Response list = http().bearer(Shop.ADMIN_KEY).get("/api/admin/unresolved");
        var ours = java.util.stream.StreamSupport.stream(list.json().spliterator(), false)
                .filter(n -> n.path("referenceId").asString().equals(reference)).toList();
        assertThat(ours).hasSize(1);
        assertThat(ours.get(0).path("kind").asString()).isEqualTo("refund");
        assertThat(ours.get(0).path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(ours.get(0).path("state").asString()).isEqualTo("UNKNOWN");
    }
}
