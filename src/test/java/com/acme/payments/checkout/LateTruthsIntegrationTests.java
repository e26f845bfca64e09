package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Results of payments that are no longer the order's never move it; a COMPLETED one is a second charge,
 * recorded once; an UNKNOWN attempt is abandoned only after the PSP was asked again.
 */
class LateTruthsIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    MeterRegistry registry;

    Shop shop() {
        return new Shop(http());
    }

    Http admin() {
        return http().bearer(Shop.ADMIN_KEY);
    }

    /** Checkout of a new order whose PSP answer is lost and not found: the attempt is UNKNOWN. */
    String unknownAttempt(String orderRef) {
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response answer = shop().checkout(orderRef);
        assertThat(answer.status()).as(answer.body()).isEqualTo(409);
        assertThat(answer.problemSlug()).isEqualTo("payment-outcome-unknown");
        psp.resetAll();
        return answer.json().path("referenceId").asString();
    }

    String referenceOfLatest(String orderRef) {
        return jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                 WHERE o.order_ref = :ref ORDER BY a.id DESC LIMIT 1""").param("ref", orderRef).query(String.class).single();
    }

    String webhook(String paymentId, String reference, String state, String amount) {
        Response answer = shop().webhook(payment(paymentId, reference, "DEPOSIT", state, amount, "EUR"));
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer.json().path("status").asString();
    }

    int duplicateCharges(String paymentId) {
        return jdbc.sql("SELECT count(*) FROM duplicate_charge WHERE psp_payment_id = :p").param("p", paymentId)
                .query(Integer.class).single();
    }

    int outboxRows(String kind, String paymentId) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE kind = :k AND idempotency_key = :key").param("k", kind)
                .param("key", paymentId + ":" + kind).query(Integer.class).single();
    }

    @Test
    @DisplayName("a stale AUTHORIZED of a declined first attempt, after the retry, never moves or relinks the order")
    void staleResultOfAnEarlierAttemptNeverMovesTheOrder() {
        var order = shop().createOrder("12.00", "EUR");
        String first = "pay-a1-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(first, "CHECKOUT", "12.00", "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);
        String firstRef = referenceOfLatest(order.orderRef());
        assertThat(webhook(first, firstRef, "DECLINED", "12.00")).isEqualTo("applied");

        String second = "pay-a2-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(second, "CHECKOUT", "12.00", "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);

        assertThat(webhook(first, firstRef, "AUTHORIZED", "12.00")).isEqualTo("duplicate");
        assertThat(webhook(first, firstRef, "PENDING", "12.00")).isEqualTo("ignored");
        Response view = shop().order(order.orderRef());
        assertThat(view.json().path("status").asString()).isEqualTo("PROCESSING");
        assertThat(view.json().path("pspPaymentId").asString()).isEqualTo(second);
    }

    @Test
    @DisplayName("an abandoned attempt's payment that completes after the retry paid is a duplicate charge, flagged once")
    void completedPaymentOfAnAbandonedAttemptIsADuplicateChargeFlaggedOnce() {
        var order = shop().createOrder("15.00", "EUR");
        String hiddenRef = unknownAttempt(order.orderRef());
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response abandoned = admin().post("/api/admin/attempts/" + hiddenRef + "/abandon", "{\"reason\":\"PSP: never seen\"}");
        assertThat(abandoned.status()).as(abandoned.body()).isEqualTo(200);

        String paid = "pay-b2-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paid, "COMPLETED", "15.00", "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);
        double before = registry.counter("payments.duplicate.charges").count();

        String hidden = "pay-b1-" + order.orderRef();
        assertThat(webhook(hidden, hiddenRef, "COMPLETED", "15.00")).isEqualTo("duplicate_charge");
        assertThat(webhook(hidden, hiddenRef, "COMPLETED", "15.00")).as("a redelivery").isEqualTo("duplicate");

        Response view = shop().order(order.orderRef());
        assertThat(view.json().path("status").asString()).isEqualTo("PAID");
        assertThat(view.json().path("pspPaymentId").asString()).isEqualTo(paid);
        assertThat(view.json().path("paidAmount").asString()).isEqualTo("15.00");
        assertThat(duplicateCharges(hidden)).isEqualTo(1);
        assertThat(outboxRows("duplicate_charge", hidden)).isEqualTo(1);
        assertThat(registry.counter("payments.duplicate.charges").count() - before).isEqualTo(1.0);
        Response list = admin().get("/api/admin/duplicate-charges");
        assertThat(list.status()).isEqualTo(200);
        var listed = java.util.stream.StreamSupport.stream(list.json().spliterator(), false)
                .filter(n -> n.path("pspPaymentId").asString().equals(hidden)).toList();
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).path("orderRef").asString()).isEqualTo(order.orderRef());
        assertThat(listed.get(0).path("amount").asString()).isEqualTo("15.00");
        assertThat(listed.get(0).has("refund")).isFalse();
    }

    @Test
    @DisplayName("an abandoned attempt's payment completing before any retry is a second charge too, and the order stays payable")
    void abandonedPaymentCompletingBeforeARetryIsADuplicateCharge() {
        var order = shop().createOrder("7.00", "EUR");
        String hiddenRef = unknownAttempt(order.orderRef());
        psp.stubFor(findCall().willReturn(nothingFound()));
        assertThat(admin().post("/api/admin/attempts/" + hiddenRef + "/abandon", (String) null).status()).isEqualTo(200);
        String hidden = "pay-c1-" + order.orderRef();
        assertThat(webhook(hidden, hiddenRef, "COMPLETED", "7.00")).isEqualTo("duplicate_charge");
        assertThat(shop().order(order.orderRef()).json().path("status").asString()).isEqualTo("AWAITING_PAYMENT");
        assertThat(duplicateCharges(hidden)).isEqualTo(1);
    }

    @Test
    @DisplayName("abandon: IN_FLIGHT and settled attempts are not open (409); the PSP is asked again first and its truth wins")
    void abandonOnlyAnUnknownAttemptThePspStillDoesNotShow() {
        var order = shop().createOrder("9.00", "EUR");
        String ref = unknownAttempt(order.orderRef());

        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref))
                .willReturn(found(payment("pay-d1-" + order.orderRef(), ref, "DEPOSIT", "CHECKOUT", "9.00", "EUR"))));
        Response shown = admin().post("/api/admin/attempts/" + ref + "/abandon", "{}");
        assertThat(shown.status()).as(shown.body()).isEqualTo(409);
        assertThat(shown.problemSlug()).isEqualTo("attempt-not-open");
        assertThat(jdbc.sql("SELECT state FROM psp_attempt WHERE reference_id = :r").param("r", ref)
                .query(String.class).single()).as("settled by the PSP's truth").isEqualTo("READY");

        var other = shop().createOrder("9.00", "EUR");
        String unseen = unknownAttempt(other.orderRef());
        jdbc.sql("UPDATE psp_attempt SET state = 'IN_FLIGHT' WHERE reference_id = :r").param("r", unseen).update();
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response inFlight = http().bearer("test-anna-key").post("/api/admin/attempts/" + unseen + "/abandon", "{}");
        assertThat(inFlight.status()).isEqualTo(409);
        assertThat(inFlight.problemSlug()).isEqualTo("attempt-not-open");

        jdbc.sql("UPDATE psp_attempt SET state = 'UNKNOWN' WHERE reference_id = :r").param("r", unseen).update();
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response closed = http().bearer("test-anna-key").post("/api/admin/attempts/" + unseen + "/abandon",
                "{\"reason\":\"confirmed with the PSP\"}");
        assertThat(closed.status()).as(closed.body()).isEqualTo(200);
        assertThat(closed.json().path("state").asString()).isEqualTo("FAILED");
        assertThat(closed.json().path("failureReason").asString()).isEqualTo("abandoned");
        var row = jdbc.sql("SELECT abandoned_by, abandon_reason, abandoned_at IS NOT NULL AS at FROM psp_attempt WHERE reference_id = :r")
                .param("r", unseen).query().singleRow();
        assertThat(row.get("abandoned_by")).isEqualTo("anna");
        assertThat(row.get("abandon_reason")).isEqualTo("confirmed with the PSP");
        assertThat(row.get("at")).isEqualTo(true);
        assertThat(admin().get("/api/admin/actions?target=attempt:" + unseen).json().get(0).path("actor").asString())
                .isEqualTo("anna");
        assertThat(admin().post("/api/admin/attempts/" + unseen + "/abandon", "{}").status()).as("once").isEqualTo(409);
        assertThat(admin().post("/api/admin/attempts/chk_nope/abandon", "{}").status()).isEqualTo(404);
    }

    @Test
    @DisplayName("abandon: an attempt a sweep pass holds is not open (409) until the pass lets it go: it may be replaying it")
    void attemptHeldBySweepPassIsNotAbandoned() {
        var order = shop().createOrder("9.00", "EUR");
        String ref = unknownAttempt(order.orderRef());
        // what a pass's claim writes (AttemptStore.CLAIM_UNKNOWN), on this row only
        jdbc.sql("""
                UPDATE psp_attempt SET lease_version = lease_version + 1, lease_until = now() + interval '2 minutes'
                 WHERE reference_id = :r AND state = 'UNKNOWN'""").param("r", ref).update();
        psp.stubFor(findCall().willReturn(nothingFound()));

        Response held = admin().post("/api/admin/attempts/" + ref + "/abandon", "{}");
        assertThat(held.status()).as(held.body()).isEqualTo(409);
        assertThat(held.problemSlug()).isEqualTo("attempt-not-open");
        assertThat(jdbc.sql("SELECT state FROM psp_attempt WHERE reference_id = :r").param("r", ref)
                .query(String.class).single()).isEqualTo("UNKNOWN");

        jdbc.sql("UPDATE psp_attempt SET lease_until = NULL WHERE reference_id = :r").param("r", ref).update();
        assertThat(admin().post("/api/admin/attempts/" + ref + "/abandon", "{}").status()).as("the pass let go")
                .isEqualTo(200);
    }

    @Test
    @DisplayName("GET /api/admin/unresolved lists IN_FLIGHT and UNKNOWN checkout attempts, oldest first")
    void unresolvedListsOpenAttemptsOldestFirst() {
        var first = shop().createOrder("3.00", "EUR");
        String older = unknownAttempt(first.orderRef());
        var second = shop().createOrder("3.00", "EUR");
        String newer = unknownAttempt(second.orderRef());
        jdbc.sql("UPDATE psp_attempt SET state = 'IN_FLIGHT' WHERE reference_id = :r").param("r", newer).update();
        Response list = admin().get("/api/admin/unresolved");
        assertThat(list.status()).isEqualTo(200);
        var ours = java.util.stream.StreamSupport.stream(list.json().spliterator(), false)
                .filter(n -> n.path("referenceId").asString().equals(older) || n.path("referenceId").asString().equals(newer))
                .toList();
        assertThat(ours).hasSize(2);
        assertThat(ours.get(0).path("referenceId").asString()).isEqualTo(older);
        assertThat(ours.get(0).path("kind").asString()).isEqualTo("checkout");
        assertThat(ours.get(0).path("orderRef").asString()).isEqualTo(first.orderRef());
        assertThat(ours.get(0).path("state").asString()).isEqualTo("UNKNOWN");
        assertThat(ours.get(1).path("state").asString()).isEqualTo("IN_FLIGHT");
        assertThat(ours.get(1).path("since").asString()).isNotBlank();
        assertThat(shop().checkout(first.orderRef()).status()).as("shop keys may not list").isNotEqualTo(200);
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/admin/unresolved").status()).isEqualTo(403);
    }
}
