package com.acme.payments.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Shop;

/**
 * Capture what was taken, and capture/void replayed by Idempotency-Key, over HTTP against the simulator:
 * the same scenarios for each provider, which supplies the service, an AUTHORIZED order and what the PSP
 * shows captured.
 */
interface PartialCaptureContract {

    /** The service, no credential yet. */
    Http api();

    /** An AUTHORIZED order of {@code amount} EUR, authorized at the simulator. */
    String authorizedOrder(String amount);

    /** What the simulator shows captured for the order's payment, in major units. */
    BigDecimal capturedAtPsp(String orderRef);

    default Response capture(String orderRef, String key, String body) {
        Http admin = api().bearer(Shop.ADMIN_KEY);
        return (key == null ? admin : admin.header("Idempotency-Key", key)).post("/api/orders/" + orderRef + "/capture", body);
    }

    default Response voidOrder(String orderRef, String key) {
        Http admin = api().bearer(Shop.ADMIN_KEY);
        return (key == null ? admin : admin.header("Idempotency-Key", key)).post("/api/orders/" + orderRef + "/void", (String) null);
    }

    default String status(String orderRef) {
        return api().bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef).json().path("status").asString();
    }

    @Test
    @DisplayName("a partial capture is PAID with paidAmount the captured amount, at the PSP too, and bounds refunds")
    default void partialCaptureBoundsRefunds() {
        String orderRef = authorizedOrder("50.00");
        Response captured = capture(orderRef, null, "{\"amount\":\"20.00\",\"currency\":\"EUR\"}");
        assertThat(captured.status()).as(captured.body()).isEqualTo(200);
        assertThat(captured.json().path("status").asString()).isEqualTo("PAID");
        assertThat(captured.json().path("paidAmount").asString()).isEqualTo("20.00");
        assertThat(capturedAtPsp(orderRef)).isEqualByComparingTo("20.00");

        Response refund = api().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", "over-1")
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"20.01\",\"currency\":\"EUR\"}");
        assertThat(refund.status()).as(refund.body()).isEqualTo(422);
        assertThat(refund.problemSlug()).isEqualTo("refund-exceeds-remainder");
    }

    @Test
    @DisplayName("more than authorized is 422 capture-exceeds-authorized, another currency 400; nothing moves; no body captures all")
    default void tooMuchOrAnotherCurrencyIsRefused() {
        String orderRef = authorizedOrder("50.00");
        Response tooMuch = capture(orderRef, null, "{\"amount\":\"50.01\",\"currency\":\"EUR\"}");
        assertThat(tooMuch.status()).as(tooMuch.body()).isEqualTo(422);
        assertThat(tooMuch.problemSlug()).isEqualTo("capture-exceeds-authorized");
        Response otherCurrency = capture(orderRef, null, "{\"amount\":\"10.00\",\"currency\":\"USD\"}");
        assertThat(otherCurrency.status()).as(otherCurrency.body()).isEqualTo(400);
        assertThat(otherCurrency.problemSlug()).isEqualTo("validation-failed");
        assertThat(status(orderRef)).isEqualTo("AUTHORIZED");

        Response all = capture(orderRef, null, null);
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(all.json().path("paidAmount").asString()).isEqualTo("50.00");
        assertThat(capturedAtPsp(orderRef)).isEqualByComparingTo("50.00");
    }

    @Test
    @DisplayName("a capture repeated with its Idempotency-Key answers the first 200 body; the key with another amount is 422")
    default void captureReplayedByKey() {
        String orderRef = authorizedOrder("50.00");
        Response first = capture(orderRef, "cap-1", "{\"amount\":\"30.00\",\"currency\":\"EUR\"}");
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().path("paidAmount").asString()).isEqualTo("30.00");

        Response again = capture(orderRef, "cap-1", "{\"amount\":\"30.00\",\"currency\":\"EUR\"}");
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());

        Response otherAmount = capture(orderRef, "cap-1", "{\"amount\":\"31.00\",\"currency\":\"EUR\"}");
        assertThat(otherAmount.status()).as(otherAmount.body()).isEqualTo(422);
        assertThat(otherAmount.problemSlug()).isEqualTo("idempotency-key-reused");

        Response noKey = capture(orderRef, null, "{\"amount\":\"30.00\",\"currency\":\"EUR\"}");
        assertThat(noKey.status()).as("without the key, as before").isEqualTo(409);
        assertThat(noKey.problemSlug()).isEqualTo("order-not-authorized");
        assertThat(capturedAtPsp(orderRef)).isEqualByComparingTo("30.00");
    }

    @Test
    @DisplayName("a void repeated with its Idempotency-Key answers the first 200 body; the key for a capture is 422")
    default void voidReplayedByKey() {
        String orderRef = authorizedOrder("40.00");
        Response first = voidOrder(orderRef, "void-1");
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().path("status").asString()).isEqualTo("PAYMENT_FAILED");

        Response again = voidOrder(orderRef, "void-1");
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());

        Response asCapture = capture(orderRef, "void-1", null);
        assertThat(asCapture.status()).as(asCapture.body()).isEqualTo(422);
        assertThat(asCapture.problemSlug()).isEqualTo("idempotency-key-reused");
    }
}
