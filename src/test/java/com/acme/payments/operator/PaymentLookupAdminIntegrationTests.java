package com.acme.payments.operator;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.client.MappingBuilder;

/** {@code GET /api/admin/payments/{pspPaymentId}}: any PSP payment id tells its order, role and our state. */
class PaymentLookupAdminIntegrationTests extends IntegrationTest {

    private Http admin() {
        return http().bearer(Shop.ADMIN_KEY);
    }

    private static MappingBuilder refundCreate() {
        return createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")));
    }

    @Test
    @DisplayName("a payment, its order's refund, a second charge and the second charge's refund are each found with "
            + "their orderRef, role and state")
    void everyPaymentIdIsFoundWithItsRoleAndState() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("20.00", "EUR");
        String orderRef = order.orderRef();
        // an attempt whose PSP answer is lost, abandoned; then a paying attempt; the hidden payment completes too
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String hiddenRef = shop.checkout(orderRef).json().path("referenceId").asString();
        assertThat(admin().post("/api/admin/attempts/" + hiddenRef + "/abandon", "{}").status()).isEqualTo(200);
        psp.resetAll();
        String paying = "pay-p-" + orderRef;
        psp.stubFor(createCall().willReturn(created(paying, "COMPLETED", "20.00", "EUR")));
        assertThat(shop.checkout(orderRef).status()).isEqualTo(200);
        String hidden = "pay-h-" + orderRef;
        assertThat(shop.webhook(payment(hidden, hiddenRef, "DEPOSIT", "COMPLETED", "20.00", "EUR")).json()
                .path("status").asString()).isEqualTo("duplicate_charge");
        psp.resetAll();

        assertThat(lookup(paying)).isEqualTo(view(paying, orderRef, "payment", "PAID"));
        assertThat(lookup(hidden)).isEqualTo(view(hidden, orderRef, "duplicate_charge", "DETECTED"));

        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-o-" + orderRef, null, "REFUND", "COMPLETED",
                "2.00", "EUR")))));
        Response orderRefund = admin().header("Idempotency-Key", "pay-lookup-1")
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"2.00\",\"currency\":\"EUR\"}");
        assertThat(orderRefund.status()).as(orderRefund.body()).isEqualTo(201);
        assertThat(lookup("rf-o-" + orderRef)).isEqualTo(view("rf-o-" + orderRef, orderRef, "refund", "DONE"));

        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-h-" + orderRef, null, "REFUND", "PENDING",
                "20.00", "EUR")))));
        Response chargeRefund = admin().post("/api/admin/duplicate-charges/" + hidden + "/refund",
                "{\"reason\":\"double charge\"}");
        assertThat(chargeRefund.status()).as(chargeRefund.body()).isIn(200, 201);
        assertThat(lookup("rf-h-" + orderRef))
                .isEqualTo(view("rf-h-" + orderRef, orderRef, "duplicate_refund", "DONE"));
        assertThat(lookup(hidden)).as("the charge shows its refund's state")
                .isEqualTo(view(hidden, orderRef, "duplicate_charge", "DONE"));
    }

    @Test
    @DisplayName("an unknown or overlong id is 404; without the admin key 401, with a shop key 403")
    void unknownIdsAre404AndOnlyTheAdminKeyMayAsk() {
        Response unknown = admin().get("/api/admin/payments/pay-nothing-" + Shop.newOrderRef());
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().path("type").asString()).endsWith("/not-found");
        assertThat(admin().get("/api/admin/payments/" + "x".repeat(300)).status()).isEqualTo(404);
        assertThat(http().get("/api/admin/payments/pay-x").status()).isEqualTo(401);
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/admin/payments/pay-x").status()).isEqualTo(403);
    }

    private String lookup(String pspPaymentId) {
        Response found = admin().get("/api/admin/payments/" + pspPaymentId);
        assertThat(found.status()).as(found.body()).isEqualTo(200);
        return found.json().path("pspPaymentId").asString() + "|" + found.json().path("orderRef").asString() + "|"
                + found.json().path("role").asString() + "|" + found.json().path("state").asString() + "|"
                + found.json().size();
    }

    private static String view(String pspPaymentId, String orderRef, String role, String state) {
        return pspPaymentId + "|" + orderRef + "|" + role + "|" + state + "|4";
    }
}
