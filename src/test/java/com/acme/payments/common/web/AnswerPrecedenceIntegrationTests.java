package com.acme.payments.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * The contract's precedence on the typed endpoints: 401/403, then 404, then 400. The access check is an
 * interceptor, the resolved row (an Order, an attempt, a refund …) is a parameter before the body, so a
 * malformed body never hides a refusal or a 404.
 */
class AnswerPrecedenceIntegrationTests extends IntegrationTest {

    private static final String MALFORMED = "{\"returnUrl\":";

    @Test
    @DisplayName("checkout with a malformed body: 401 unknown token, 403 another order's token, 404 unknown order, then 400")
    void checkoutAnswersAccessThenNotFoundThenBody() {
        Shop shop = new Shop(http());
        Shop.CreatedOrder order = shop.createOrder("10.00", "EUR");
        Shop.CreatedOrder other = shop.createOrder("10.00", "EUR");
        String checkout = "/api/orders/" + order.orderRef() + "/checkout";

        assertThat(http().bearer("no-such-token").post(checkout, MALFORMED).status()).isEqualTo(401);
        Response foreign = http().bearer(other.clientToken()).post(checkout, MALFORMED);
        assertThat(foreign.status()).isEqualTo(403);
        assertThat(foreign.problemSlug()).isEqualTo("forbidden");
        Response unknown = http().bearer(Shop.SHOP_KEY).post("/api/orders/no-such-order/checkout", MALFORMED);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.problemSlug()).isEqualTo("not-found");
        Response malformed = http().bearer(order.clientToken()).post(checkout, MALFORMED);
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.problemSlug()).isEqualTo("malformed-request");
    }

    @Test
    @DisplayName("refund with a malformed body: 401, 403, 404, then the missing key's 400, then the body's 400")
    void refundAnswersAccessThenNotFoundThenKeyThenBody() {
        Shop.CreatedOrder order = new Shop(http()).createOrder("10.00", "EUR");
        String refunds = "/api/orders/" + order.orderRef() + "/refunds";
        String wrongType = "{\"amount\":[1],\"currency\":\"EUR\"}";

        assertThat(http().header("Idempotency-Key", "k").post(refunds, MALFORMED).status()).isEqualTo(401);
        assertThat(http().bearer(Shop.SHOP_KEY).header("Idempotency-Key", "k").post(refunds, MALFORMED).status())
                .isEqualTo(403);
        assertThat(admin().post("/api/orders/no-such-order/refunds", MALFORMED).status()).isEqualTo(404);
        Response missingKey = admin().post(refunds, wrongType);
        assertThat(missingKey.status()).isEqualTo(400);
        assertThat(missingKey.json().path("errors").get(0).path("field").asString()).isEqualTo("Idempotency-Key");
        Response badBody = admin().header("Idempotency-Key", "k").post(refunds, wrongType);
        assertThat(badBody.status()).isEqualTo(400);
        assertThat(badBody.json().path("errors").get(0).path("field").asString()).isEqualTo("amount");
    }

    @Test
    @DisplayName("operator actions on an unknown row with a malformed body: 403 for a shop key, else 404")
    void operatorActionsAnswerNotFoundBeforeTheBody() {
        Shop.CreatedOrder order = new Shop(http()).createOrder("10.00", "EUR");
        for (String path : new String[] { "/api/orders/no-such-order/capture", "/api/orders/no-such-order/void",
                "/api/admin/attempts/no-such-attempt/abandon", "/api/admin/refunds/no-such-refund/abandon",
                "/api/admin/duplicate-charges/no-such-payment/refund", "/api/admin/outbox/999999999/discard",
                "/api/admin/outbox/not-a-number/discard" }) {
            assertThat(http().bearer(order.clientToken()).post(path, MALFORMED).status()).as(path).isIn(401, 403);
            assertThat(http().bearer(Shop.SHOP_KEY).post(path, MALFORMED).status()).as(path).isEqualTo(403);
            Response unknown = admin().post(path, MALFORMED);
            assertThat(unknown.status()).as(path).isEqualTo(404);
            assertThat(unknown.problemSlug()).as(path).isEqualTo("not-found");
        }
        Response capture = admin().post("/api/orders/" + order.orderRef() + "/capture", MALFORMED);
        assertThat(capture.status()).isEqualTo(400);
        assertThat(capture.problemSlug()).isEqualTo("malformed-request");
    }

    private com.acme.payments.support.Http admin() {
        return http().bearer(Shop.ADMIN_KEY);
    }
}
