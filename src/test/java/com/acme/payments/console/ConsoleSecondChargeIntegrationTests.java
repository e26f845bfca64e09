package com.acme.payments.console;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;
import com.acme.payments.support.Shop;

/**
 * A checkout attempt abandoned in the console, whose payment then completes after all: a second charge, listed
 * in the console and refunded there in full, each action audited under the key's name.
 */
class ConsoleSecondChargeIntegrationTests extends ConsoleFixtures {

    @Test
    @DisplayName("abandon an UNKNOWN attempt, then refund the second charge it became, both from the console")
    void abandonAnAttemptThenRefundItsSecondCharge() {
        Shop shop = new Shop(http());
        Shop.CreatedOrder order = shop.createOrder("30.00", "EUR");
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String attempt = shop.checkout(order.orderRef()).json().path("referenceId").asString();

        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        assertThat(anna.get("/console/unresolved").body()).contains("/console/attempts/" + attempt + "/abandon");
        HttpResponse<String> abandoned = anna.post("/console/attempts/" + attempt + "/abandon",
                Map.of("reason", "PSP shows nothing"));
        assertThat(abandoned.statusCode()).as(abandoned.body()).isEqualTo(302);
        assertThat(jdbc.sql("SELECT state || ' ' || failure_reason FROM psp_attempt WHERE reference_id = :r")
                .param("r", attempt).query(String.class).single()).isEqualTo("FAILED abandoned");

        psp.resetAll();
        psp.stubFor(createCall().willReturn(created("pay-p-" + order.orderRef(), "COMPLETED", "30.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        String hidden = "pay-h-" + order.orderRef();
        Http.Response hook = shop.webhook(payment(hidden, attempt, "DEPOSIT", "COMPLETED", "30.00", "EUR"));
        assertThat(hook.json().path("status").asString()).isEqualTo("duplicate_charge");
        psp.resetAll();

        HttpResponse<String> listed = anna.get("/console/second-charges");
        assertThat(listed.body()).contains(hidden).contains("30.00 EUR").contains("not refunded")
                .contains("/console/duplicate-charges/" + hidden + "/refund");
        assertThat(anna.get("/console/discrepancies").body()).contains("duplicate_charge").contains(hidden);

        anna.get("/console/second-charges");
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(created("rf-" + hidden, "COMPLETED", "30.00", "EUR")));
        HttpResponse<String> refunded = anna.post("/console/duplicate-charges/" + hidden + "/refund",
                Map.of("reason", "charged twice"));
        assertThat(refunded.statusCode()).as(refunded.body()).isEqualTo(302);
        assertThat(anna.get("/console/second-charges").body()).contains("DONE").contains("by anna");
        assertThat(jdbc.sql("""
                SELECT actor || ' ' || action || ' ' || target || ' ' || outcome FROM operator_action
                 WHERE target IN (:a, :p) ORDER BY id""").param("a", "attempt:" + attempt)
                .param("p", "payment:" + hidden).query(String.class).list())
                .containsExactly("anna abandon attempt:" + attempt + " done",
                        "anna duplicate-refund payment:" + hidden + " done");
    }
}
