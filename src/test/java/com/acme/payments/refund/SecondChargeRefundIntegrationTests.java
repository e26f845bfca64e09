package com.acme.payments.refund;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.DatabaseGauges;
import com.acme.payments.sweep.Polls;
import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.client.MappingBuilder;

import io.micrometer.core.instrument.MeterRegistry;

import tools.jackson.databind.JsonNode;

/**
 * A second charge's refund is a refund like an order's — listed while open, abandoned
 * after the PSP was asked once more, its PSP state shown and polled, a late decline failing it with a
 * {@code refund_failed} effect, and the charge refundable again afterwards; exactly one PSP POST per refund.
 */
class SecondChargeRefundIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    @Autowired
    DatabaseGauges gauges;

    @Autowired
    MeterRegistry meters;

    Http admin() {
        return http().bearer(Shop.ADMIN_KEY);
    }

    /** An order paid once, plus its abandoned attempt's hidden payment that completed: a second charge. */
    String secondCharge(String amount) {
        Shop shop = new Shop(http());
        var order = shop.createOrder(amount, "EUR");
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String hiddenRef = shop.checkout(order.orderRef()).json().path("referenceId").asString();
        assertThat(admin().post("/api/admin/attempts/" + hiddenRef + "/abandon", "{}").status()).isEqualTo(200);
        psp.resetAll();
        psp.stubFor(createCall().willReturn(created("pay-p-" + order.orderRef(), "COMPLETED", amount, "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        String hidden = "pay-h-" + order.orderRef();
        Response hook = shop.webhook(payment(hidden, hiddenRef, "DEPOSIT", "COMPLETED", amount, "EUR"));
        assertThat(hook.json().path("status").asString()).isEqualTo("duplicate_charge");
        psp.resetAll();
        return hidden;
    }

    static MappingBuilder refundCreate() {
        return createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")));
    }

    Response refundCharge(String charge) {
        return admin().post("/api/admin/duplicate-charges/" + charge + "/refund", "{\"reason\":\"double charge\"}");
    }

    int refundPostsFor(String parent) {
        return psp.countRequestsMatching(postRequestedFor(urlEqualTo("/api/v1/payments"))
                .withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .withRequestBody(matchingJsonPath("$.parentPaymentId", equalTo(parent))).build()).getCount();
    }

    JsonNode listed(String charge) {
        Response list = admin().get("/api/admin/duplicate-charges");
        assertThat(list.status()).isEqualTo(200);
        List<JsonNode> ours = StreamSupport.stream(list.json().spliterator(), false)
                .filter(n -> n.path("pspPaymentId").asString().equals(charge)).toList();
        assertThat(ours).hasSize(1);
        return ours.get(0);
    }

    List<JsonNode> unresolved(String reference) {
        return StreamSupport.stream(admin().get("/api/admin/unresolved").json().spliterator(), false)
                .filter(n -> n.path("referenceId").asString().equals(reference)).toList();
    }

    List<String> refundFailedEffects(String refundPaymentId) {
        return jdbc.sql("SELECT payload::text FROM outbox WHERE kind = 'refund_failed' AND idempotency_key = :k")
                .param("k", refundPaymentId + ":refund_failed").query(String.class).list();
    }

    void assertOutcomeUnknown(Response answer, String reference) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(409);
        assertThat(answer.problemSlug()).isEqualTo("refund-outcome-unknown");
        assertThat(answer.header("Retry-After")).isNotBlank();
        assertThat(answer.json().path("referenceId").asString()).isEqualTo(reference);
    }

    @Test
    @DisplayName("a second-charge refund gone UNKNOWN is listed as duplicate_refund, abandoned after asking the PSP, and the charge is refundable again")
    void unknownSecondChargeRefundIsListedAbandonedAndRefundableAgain() {
        String charge = secondCharge("13.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response lost = refundCharge(charge);
        assertThat(lost.status()).as(lost.body()).isEqualTo(409);
        String reference = lost.json().path("referenceId").asString();
        assertThat(reference).startsWith("dcr_");
        assertOutcomeUnknown(lost, reference);
        assertOutcomeUnknown(refundCharge(charge), reference);
        assertThat(refundPostsFor(charge)).as("an open refund is reconciled, never POSTed again").isEqualTo(1);

        List<JsonNode> open = unresolved(reference);
        assertThat(open).hasSize(1);
        assertThat(open.get(0).path("kind").asString()).isEqualTo("duplicate_refund");
        assertThat(open.get(0).path("state").asString()).isEqualTo("UNKNOWN");
        assertThat(open.get(0).path("orderRef").asString()).isEqualTo(listed(charge).path("orderRef").asString());

        psp.resetAll();
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response abandoned = http().bearer("test-anna-key").post("/api/admin/refunds/" + reference + "/abandon",
                "{\"reason\":\"PSP support: never created\"}");
        assertThat(abandoned.status()).as(abandoned.body()).isEqualTo(200);
        assertThat(abandoned.json().path("state").asString()).isEqualTo("FAILED");
        assertThat(abandoned.json().path("errorCode").asString()).isEqualTo("abandoned");
        assertThat(abandoned.json().path("abandonedBy").asString()).isEqualTo("anna");
        assertThat(psp.countRequestsMatching(getRequestedFor(urlPathEqualTo("/api/v1/payments"))
                .withQueryParam("referenceId.eq", equalTo(reference)).build()).getCount())
                .as("the PSP was asked once more first").isEqualTo(1);
        assertThat(unresolved(reference)).isEmpty();
        assertThat(listed(charge).path("refund").path("state").asString()).isEqualTo("FAILED");
        assertThat(admin().post("/api/admin/refunds/" + reference + "/abandon", "{}").problemSlug())
                .isEqualTo("refund-not-open");

        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf2-" + charge, null, "REFUND", "COMPLETED",
                "13.00", "EUR")))));
        Response again = refundCharge(charge);
        assertThat(again.status()).as(again.body()).isEqualTo(201);
        assertThat(again.json().path("state").asString()).isEqualTo("DONE");
        assertThat(again.json().path("referenceId").asString()).startsWith("dcr_").isNotEqualTo(reference);
        assertThat(refundCharge(charge).status()).as("a replay").isEqualTo(200);
        assertThat(refundPostsFor(charge)).isEqualTo(1);
    }

    @Test
    @DisplayName("GET /api/admin/refunds/{referenceId} shows any refund with its orderRef: an order's and a second charge's alike")
    void anyRefundIsFoundByItsReference() {
        String charge = secondCharge("14.00");
        String orderRef = listed(charge).path("orderRef").asString();
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-" + charge, null, "REFUND", "PENDING",
                "14.00", "EUR")))));
        String reference = refundCharge(charge).json().path("referenceId").asString();

        Response found = admin().get("/api/admin/refunds/" + reference);
        assertThat(found.status()).as(found.body()).isEqualTo(200);
        assertThat(found.json().path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(found.json().path("referenceId").asString()).isEqualTo(reference);
        assertThat(found.json().path("state").asString()).isEqualTo("DONE");
        assertThat(found.json().path("pspState").asString()).isEqualTo("PENDING");
        assertThat(found.json().path("pspPaymentId").asString()).isEqualTo("rf-" + charge);
        assertThat(found.json().path("refundKey").isNull()).as("a second charge's refund has no key").isTrue();

        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-o-" + orderRef, null, "REFUND", "COMPLETED",
                "2.00", "EUR")))));
        Response orderRefund = admin().header("Idempotency-Key", "lookup-1").post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"2.00\",\"currency\":\"EUR\"}");
        assertThat(orderRefund.status()).as(orderRefund.body()).isEqualTo(201);
        Response byOrder = admin().get("/api/admin/refunds/" + orderRefund.json().path("referenceId").asString());
        assertThat(byOrder.status()).isEqualTo(200);
        assertThat(byOrder.json().path("orderRef").asString()).isEqualTo(orderRef);
        assertThat(byOrder.json().path("refundKey").asString()).isEqualTo("lookup-1");

        assertThat(admin().get("/api/admin/refunds/rfd_nothing").status()).isEqualTo(404);
        assertThat(admin().get("/api/admin/refunds/" + "x".repeat(300)).status()).isEqualTo(404);
        assertThat(http().get("/api/admin/refunds/" + reference).status()).isEqualTo(401);
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/admin/refunds/" + reference).status()).isEqualTo(403);
    }

    @Test
    @DisplayName("abandoning a second-charge refund the PSP shows after all settles it by that truth: 409 refund-not-open")
    void abandonOfASecondChargeRefundThePspShowsSettlesIt() {
        String charge = secondCharge("6.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String reference = refundCharge(charge).json().path("referenceId").asString();
        psp.resetAll();
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(reference))
                .willReturn(found(payment("rf-" + charge, reference, "REFUND", "COMPLETED", "6.00", "EUR"))));

        Response shown = admin().post("/api/admin/refunds/" + reference + "/abandon", "{}");
        assertThat(shown.status()).as(shown.body()).isEqualTo(409);
        assertThat(shown.problemSlug()).isEqualTo("refund-not-open");
        JsonNode refund = listed(charge).path("refund");
        assertThat(refund.path("state").asString()).isEqualTo("DONE");
        assertThat(refund.path("pspState").asString()).isEqualTo("COMPLETED");
        Response replay = refundCharge(charge);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.json().path("referenceId").asString()).isEqualTo(reference);
    }

    @Test
    @DisplayName("a second-charge refund accepted PENDING, its DECLINED webhook lost: the straggler poll fails it, refund_failed once, refundable again")
    void pendingThenDeclinedWithTheWebhookLostIsFailedByTheStragglerPoll() {
        String charge = secondCharge("17.00");
        String rf = "rf-pd-" + charge;
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment(rf, null, "REFUND", "PENDING", "17.00", "EUR")))));
        Response accepted = refundCharge(charge);
        assertThat(accepted.status()).as(accepted.body()).isEqualTo(201);
        assertThat(accepted.json().path("state").asString()).isEqualTo("DONE");
        String reference = accepted.json().path("referenceId").asString();
        JsonNode refund = listed(charge).path("refund");
        assertThat(refund.path("referenceId").asString()).isEqualTo(reference);
        assertThat(refund.path("pspState").asString()).isEqualTo("PENDING");

        jdbc.sql("UPDATE psp_refund_attempt SET updated_at = now() - interval '1 hour' WHERE reference_id = :r")
                .param("r", reference).update();
        psp.stubFor(getCall(rf).willReturn(okJson(envelope(payment(rf, reference, "REFUND", "DECLINED", "17.00", "EUR")))));
        polls.run("refund-straggler-poll");
        jdbc.sql("UPDATE psp_refund_attempt SET last_polled_at = now() - interval '1 hour', updated_at = now() - interval '1 hour'"
                + " WHERE reference_id = :r").param("r", reference).update();
        polls.run("refund-straggler-poll");

        refund = listed(charge).path("refund");
        assertThat(refund.path("state").asString()).isEqualTo("FAILED");
        assertThat(refund.path("pspState").asString()).isEqualTo("DECLINED");
        List<String> effects = refundFailedEffects(rf);
        assertThat(effects).as("sent once").hasSize(1);
        assertThat(effects.get(0)).contains("\"refundKey\": null").contains("\"referenceId\": \"" + reference + "\"")
                .contains("\"errorCode\": \"card_declined\"");

        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf2-" + charge, null, "REFUND", "COMPLETED",
                "17.00", "EUR")))));
        Response again = refundCharge(charge);
        assertThat(again.status()).as(again.body()).isEqualTo(201);
        assertThat(again.json().path("referenceId").asString()).isNotEqualTo(reference);
        assertThat(refundPostsFor(charge)).isEqualTo(2);
    }

    @Test
    @DisplayName("an abandoned second-charge refund the PSP made after all is learnt by the straggler poll: DONE again, the charge no longer refundable")
    void abandonedSecondChargeRefundThePspMadeIsLearntByThePoll() {
        String charge = secondCharge("8.00");
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String reference = refundCharge(charge).json().path("referenceId").asString();
        assertThat(admin().post("/api/admin/refunds/" + reference + "/abandon", "{}").status()).isEqualTo(200);
        psp.resetAll();
        jdbc.sql("UPDATE psp_refund_attempt SET updated_at = now() - interval '1 hour' WHERE reference_id = :r")
                .param("r", reference).update();
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(reference))
                .willReturn(found(payment("rf-aw-" + charge, reference, "REFUND", "COMPLETED", "8.00", "EUR"))));

        polls.run("refund-straggler-poll");

        JsonNode refund = listed(charge).path("refund");
        assertThat(refund.path("referenceId").asString()).isEqualTo(reference);
        assertThat(refund.path("state").asString()).isEqualTo("DONE");
        Response replay = refundCharge(charge);
        assertThat(replay.status()).as(replay.body()).isEqualTo(200);
        assertThat(replay.json().path("referenceId").asString()).isEqualTo(reference);
        assertThat(refundPostsFor(charge)).as("no second refund of the charge").isZero();
    }

    @Test
    @DisplayName("a second charge counts as unrefunded (SecondChargeUnrefunded) while its refund is FAILED, until one is DONE")
    void aSecondChargeIsUnrefundedUntilARefundOfItIsDone() {
        String charge = secondCharge("11.00");
        jdbc.sql("UPDATE duplicate_charge SET detected_at = now() - interval '3 days' WHERE psp_payment_id = :p")
                .param("p", charge).update();
        double before = unrefunded();
        assertThat(unrefundedOldestAge()).as("detected three days ago").isGreaterThanOrEqualTo(3 * 86400);

        String rf = "rf-un-" + charge;
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment(rf, null, "REFUND", "PENDING", "11.00", "EUR")))));
        String reference = refundCharge(charge).json().path("referenceId").asString();
        assertThat(new Shop(http()).webhook(payment(rf, reference, "REFUND", "DECLINED", "11.00", "EUR")).status())
                .isEqualTo(200);
        assertThat(listed(charge).path("refund").path("state").asString()).isEqualTo("FAILED");
        assertThat(unrefunded()).as("a FAILED refund pays nothing back").isEqualTo(before);

        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf2-un-" + charge, null, "REFUND", "COMPLETED",
                "11.00", "EUR")))));
        assertThat(refundCharge(charge).json().path("state").asString()).isEqualTo("DONE");
        assertThat(unrefunded()).as("refunded").isEqualTo(before - 1);
        assertThat(unrefundedOldestAge()).as("no charge three days old left").isLessThan(3 * 86400);
    }

    double unrefunded() {
        gauges.refresh();
        return meters.get("payments.duplicate.charges.unrefunded").gauge().value();
    }

    double unrefundedOldestAge() {
        gauges.refresh();
        return meters.get("payments.duplicate.charges.unrefunded.oldest.age").gauge().value();
    }

    @Test
    @DisplayName("a second-charge refund DONE and DECLINED later by webhook is FAILED with one refund_failed effect")
    void lateDeclinedWebhookFailsASecondChargeRefundOnce() {
        String charge = secondCharge("9.00");
        String rf = "rf-wh-" + charge;
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment(rf, null, "REFUND", "PENDING", "9.00", "EUR")))));
        String reference = refundCharge(charge).json().path("referenceId").asString();
        Shop shop = new Shop(http());
        assertThat(shop.webhook(payment(rf, reference, "REFUND", "DECLINED", "9.00", "EUR")).json().path("status")
                .asString()).isEqualTo("applied");
        assertThat(shop.webhook(payment(rf, reference, "REFUND", "DECLINED", "9.00", "EUR")).json().path("status")
                .asString()).isEqualTo("duplicate");
        assertThat(listed(charge).path("refund").path("state").asString()).isEqualTo("FAILED");
        assertThat(refundFailedEffects(rf)).hasSize(1);
    }

    @Test
    @DisplayName("a second-charge refund asked for by many callers at once is POSTed exactly once; open answers are 409 with Retry-After")
    void concurrentSecondChargeRefundCallsPostOnce() throws Exception {
        String charge = secondCharge("11.00");
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-c-" + charge, null, "REFUND", "COMPLETED",
                "11.00", "EUR"))).withFixedDelay(700)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> futures = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            futures.add(pool.submit(() -> {
                start.await();
                return refundCharge(charge);
            }));
        }
        start.countDown();
        List<Response> answers = new ArrayList<>();
        for (Future<Response> f : futures) {
            answers.add(f.get());
        }
        pool.shutdown();

        assertThat(refundPostsFor(charge)).isEqualTo(1);
        assertThat(answers).filteredOn(a -> a.status() == 201).hasSize(1);
        assertThat(answers).allMatch(a -> a.status() == 201 || a.status() == 200 || a.status() == 409);
        String reference = answers.stream().filter(a -> a.status() == 201).findFirst().orElseThrow().json()
                .path("referenceId").asString();
        answers.stream().filter(a -> a.status() == 409).forEach(a -> assertOutcomeUnknown(a, reference));
        assertThat(jdbc.sql("SELECT count(*) FROM psp_refund_attempt WHERE reference_id LIKE 'dcr_%' AND amount = 11.00"
                + " AND duplicate_charge_id = (SELECT id FROM duplicate_charge WHERE psp_payment_id = :p)")
                .param("p", charge).query(Integer.class).single()).as("one refund attempt").isEqualTo(1);
    }
}
