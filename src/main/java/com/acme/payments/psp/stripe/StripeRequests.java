package com.acme.payments.psp.stripe;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import com.acme.payments.psp.CreatePayment;
import com.acme.payments.psp.PspRejected;
import com.acme.payments.psp.stripe.StripePspProperties.CaptureMethod;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The bodies the adapter sends, built once. A Checkout Session's form is built at the claim, with its
 * {@code expires_at}, and stored with the attempt as a {@link Fixed} (the form, the claim time, the
 * expiry): every later send of that attempt is those bytes, so a replay under the same Idempotency-Key is
 * byte-identical however the config or the code's parameter order changes. A refund's form is rebuilt
 * from its rows each time: every value in it is stored and nothing in it depends on config or the clock.
 */
final class StripeRequests {

    private StripeRequests() {
    }

    /** What the claim stores for a Stripe checkout attempt. Times are Stripe's epoch seconds. */
    record Fixed(long claimedAt, long expiresAt, String form) {

        String toJson(JsonMapper json) {
            ObjectNode node = json.createObjectNode();
            node.put("claimedAt", claimedAt);
            node.put("expiresAt", expiresAt);
            node.put("form", form);
            return json.writeValueAsString(node);
        }

        /** The stored text, or null when there is none (an attempt this adapter did not claim). */
        static Fixed fromJson(JsonMapper json, String text) {
            if (text == null || text.isBlank()) {
                return null;
            }
            JsonNode node = json.readTree(text);
            JsonNode form = node.get("form");
            if (form == null || !form.isString() || !node.path("claimedAt").canConvertToLong()
                    || !node.path("expiresAt").canConvertToLong()) {
                throw new IllegalStateException("stored Stripe request is not one this adapter wrote");
            }
            return new Fixed(node.get("claimedAt").longValue(), node.get("expiresAt").longValue(), form.asString());
        }

        Instant claimed() {
            return Instant.ofEpochSecond(claimedAt);
        }

        Instant expires() {
            return Instant.ofEpochSecond(expiresAt);
        }
    }

    /**
     * {@code POST /v1/checkout/sessions}, every parameter of the contract's checkout row, in one fixed order.
     *
     * @throws StripeMoney.AmountNotSupported when Stripe cannot take the amount exactly
     */
    static Fixed session(CreatePayment request, Instant claimedAt, java.time.Duration lifetime,
            CaptureMethod captureMethod) {
        long expiresAt = claimedAt.plus(lifetime).getEpochSecond();
        Map<String, String> form = new LinkedHashMap<>();
        form.put("mode", "payment");
        form.put("line_items[0][quantity]", "1");
        form.put("line_items[0][price_data][currency]", StripeMoney.stripeCurrency(request.currency()));
        form.put("line_items[0][price_data][unit_amount]",
                Long.toString(StripeMoney.toMinor(request.amount(), request.currency())));
        form.put("line_items[0][price_data][product_data][name]", "Order " + request.orderRef());
        form.put("client_reference_id", request.referenceId());
        form.put("metadata[orderRef]", request.orderRef());
        form.put("metadata[attempt]", request.referenceId());
        form.put("payment_intent_data[metadata][orderRef]", request.orderRef());
        form.put("payment_intent_data[metadata][attempt]", request.referenceId());
        if (captureMethod == CaptureMethod.MANUAL) {
            form.put("payment_intent_data[capture_method]", "manual");
        }
        if (request.returnUrl() != null) {
            form.put("success_url", request.returnUrl());
            form.put("cancel_url", request.returnUrl());
        }
        form.put("expires_at", Long.toString(expiresAt));
        if (request.customer() != null && request.customer().email() != null
                && !request.customer().email().isBlank()) {
            form.put("customer_email", request.customer().email());
        }
        return new Fixed(claimedAt.getEpochSecond(), expiresAt, StripePspClient.encode(form));
    }

    /**
     * {@code POST /v1/refunds} of a PaymentIntent: deterministic from the refund's rows.
     *
     * @throws PspRejected when nothing can be sent: the parent is no PaymentIntent, or Stripe cannot take the
     *         amount exactly (a refusal before the call: nothing was created)
     */
    static String refund(CreatePayment request) {
        String parent = request.parentPaymentId();
        if (parent == null || !parent.startsWith("pi_")) {
            throw new PspRejected(400, "parent_not_a_payment_intent",
                    "a Stripe refund needs the PaymentIntent it refunds, not " + parent);
        }
        long amount;
        try {
            amount = StripeMoney.toMinor(request.amount(), request.currency());
        } catch (StripeMoney.AmountNotSupported inexact) {
            throw new PspRejected(400, "amount_not_supported", inexact.getMessage());
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("payment_intent", parent);
        form.put("amount", Long.toString(amount));
        if (request.refundKey() != null) {
            form.put("metadata[refundKey]", request.refundKey());
        }
        form.put("metadata[referenceId]", request.referenceId());
        return StripePspClient.encode(form);
    }
}
