package com.acme.payments.operator;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

import tools.jackson.databind.JsonNode;

/** The audit trail says what became of each operator action, not only that it was asked for. */
class OperatorActionOutcomeIntegrationTests extends IntegrationTest {

    Shop shop() {
        return new Shop(http());
    }

    Http anna() {
        return http().bearer("test-anna-key");
    }

    JsonNode actions(String target) {
        Response list = anna().get("/api/admin/actions?target=" + target);
        assertThat(list.status()).as(list.body()).isEqualTo(200);
        return list.json();
    }

    @Test
    @DisplayName("an abandon answered 409 is recorded as refused with its status, the one answered 200 as done")
    void refusedAbandonIsRecordedAsRefused() {
        var order = shop().createOrder("12.00", "EUR");
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response unknown = shop().checkout(order.orderRef());
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(409);
        String reference = unknown.json().path("referenceId").asString();

        Response done = anna().post("/api/admin/attempts/" + reference + "/abandon", "{\"reason\":\"PSP: never seen\"}");
        assertThat(done.status()).as(done.body()).isEqualTo(200);
        Response refused = anna().post("/api/admin/attempts/" + reference + "/abandon", "{\"reason\":\"again\"}");
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);

        JsonNode actions = actions("attempt:" + reference);
        assertThat(actions).hasSize(2);
        assertThat(actions.get(0).path("actor").asString()).isEqualTo("anna");
        assertThat(actions.get(0).path("outcome").asString()).isEqualTo("done");
        assertThat(actions.get(0).path("status").asInt()).isEqualTo(200);
        assertThat(actions.get(1).path("reason").asString()).isEqualTo("again");
        assertThat(actions.get(1).path("outcome").asString()).as("a 409 abandon did nothing").isEqualTo("refused");
        assertThat(actions.get(1).path("status").asInt()).isEqualTo(409);
    }

    @Test
    @DisplayName("a request refused before its action is asked for (its 404, its 400) leaves no entry")
    void refusedBeforeAskedLeavesNoEntry() {
        var order = shop().createOrder("7.00", "EUR");
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        Response unknown = shop().checkout(order.orderRef());
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(409);
        String reference = unknown.json().path("referenceId").asString();

        Response malformed = anna().post("/api/admin/attempts/" + reference + "/abandon", "[1");
        assertThat(malformed.status()).as(malformed.body()).isEqualTo(400);
        assertThat(actions("attempt:" + reference)).isEmpty();
        assertThat(anna().post("/api/admin/outbox/not-a-row/redrive", "").status()).isEqualTo(404);
        assertThat(actions("outbox:not-a-row")).isEmpty();

        Response done = anna().post("/api/admin/attempts/" + reference + "/abandon", "");
        assertThat(done.status()).as(done.body()).isEqualTo(200);
        JsonNode actions = actions("attempt:" + reference);
        assertThat(actions).hasSize(1);
        assertThat(actions.get(0).path("action").asString()).isEqualTo("abandon");
        JsonNode reason = actions.get(0).path("reason");
        assertThat(reason.isNull() || reason.isMissingNode()).as("no body, no reason: " + reason).isTrue();
        assertThat(actions.get(0).path("outcome").asString()).isEqualTo("done");
    }

    @Test
    @DisplayName("a refund whose PSP answer was lost (409 + Retry-After) is recorded as unknown, not done")
    void refundWithLostAnswerIsRecordedAsUnknown() {
        var order = shop().createOrder("30.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-" + order.orderRef(), "COMPLETED", "30.00", "EUR")));
        assertThat(shop().checkout(order.orderRef()).status()).isEqualTo(200);
        psp.resetAll();
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));

        Response lost = anna().header("Idempotency-Key", "audit-1").post("/api/orders/" + order.orderRef() + "/refunds",
                "{\"amount\":\"5.00\",\"currency\":\"EUR\",\"reason\":\"customer asked\"}");
        assertThat(lost.status()).as(lost.body()).isEqualTo(409);
        assertThat(lost.problemSlug()).isEqualTo("refund-outcome-unknown");

        JsonNode actions = actions("order:" + order.orderRef() + "/refund:audit-1");
        assertThat(actions).hasSize(1);
        assertThat(actions.get(0).path("outcome").asString()).isEqualTo("unknown");
        assertThat(actions.get(0).path("status").asInt()).isEqualTo(409);
    }
}
