package com.acme.payments.stripe;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Realistic Stripe event bodies in the current API's shape (subscription id under
 * {@code parent.subscription_details}, the period on the invoice line, minor units, cumulative
 * {@code amount_refunded}), and Stripe's signature computed independently of the production code.
 */
public final class StripeFixtures {

    public static final String SECRET = "whsec_test_secret";
    public static final long DAY = 86_400;
    /** 2025-01-01T00:00:00Z: period starts in tests are this plus whole months. */
    public static final long JAN_2025 = 1_735_689_600L;

    private StripeFixtures() {
    }

    public static String id(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    public static long month(int n) {
        return JAN_2025 + n * 30 * DAY;
    }

    /** {@code t=<now>,v1=<hex>} as Stripe sends it. */
    public static String signature(String body, long timestamp, String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] digest = mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(digest);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static String event(String eventId, String type, String object) {
        return """
                {
                  "id": "%s",
                  "object": "event",
                  "api_version": "2025-08-27.basil",
                  "created": %d,
                  "data": { "object": %s },
                  "livemode": false,
                  "pending_webhooks": 1,
                  "request": { "id": null, "idempotency_key": null },
                  "type": "%s"
                }
                """.formatted(eventId, System.currentTimeMillis() / 1000, object, type);
    }

    /** A checkout session; {@code mode} subscription or payment, {@code paymentStatus} paid / unpaid. */
    public static String session(String sessionId, String mode, String paymentStatus, String userId,
            String subscriptionId, String paymentIntentId, long amountTotal, String metadataExtra) {
        return """
                {
                  "id": "%s",
                  "object": "checkout.session",
                  "amount_subtotal": %d,
                  "amount_total": %d,
                  "client_reference_id": null,
                  "currency": "eur",
                  "customer": "cus_test",
                  "metadata": { "userId": "%s"%s },
                  "mode": "%s",
                  "payment_intent": %s,
                  "payment_method_types": ["card", "sepa_debit"],
                  "payment_status": "%s",
                  "status": "complete",
                  "subscription": %s,
                  "success_url": "https://shop.test/thank-you"
                }
                """.formatted(sessionId, amountTotal, amountTotal, userId,
                metadataExtra == null ? "" : ", " + metadataExtra, mode, quoted(paymentIntentId), paymentStatus,
                quoted(subscriptionId));
    }

    /** A paid invoice with one subscription line for the period (proration lines when reason is an update). */
    public static String invoice(String invoiceId, String billingReason, String subscriptionId, String userId,
            long periodStart, long periodEnd, long amountPaid, String conversionEventId) {
        boolean proration = "subscription_update".equals(billingReason);
        String lines = proration ? prorationLines(subscriptionId, periodStart, periodEnd)
                : subscriptionLine(subscriptionId, periodStart, periodEnd, amountPaid, false);
        return """
                {
                  "id": "%s",
                  "object": "invoice",
                  "amount_due": %d,
                  "amount_paid": %d,
                  "amount_remaining": 0,
                  "billing_reason": "%s",
                  "currency": "eur",
                  "customer": "cus_test",
                  "hosted_invoice_url": "https://invoice.stripe.com/i/acct_test/%s",
                  "metadata": { %s },
                  "parent": {
                    "type": "subscription_details",
                    "quote_details": null,
                    "subscription_details": {
                      "metadata": { "userId": "%s" },
                      "subscription": "%s"
                    }
                  },
                  "lines": { "object": "list", "data": [ %s ], "has_more": false, "total_count": 1,
                             "url": "/v1/invoices/%s/lines" },
                  "period_start": %d,
                  "period_end": %d,
                  "status": "paid",
                  "status_transitions": { "paid_at": %d }
                }
                """.formatted(invoiceId, amountPaid, amountPaid, billingReason, invoiceId,
                conversionEventId == null ? "" : "\"conversionEventId\": \"" + conversionEventId + "\"", userId,
                subscriptionId, lines, invoiceId, periodStart - 30 * DAY, periodStart, periodStart + 60);
    }

    private static String subscriptionLine(String subscriptionId, long start, long end, long amount,
            boolean proration) {
        return """
                {
                  "id": "%s",
                  "object": "line_item",
                  "amount": %d,
                  "currency": "eur",
                  "description": "1 × Pro (at €29.00 / month)",
                  "parent": {
                    "type": "subscription_item_details",
                    "subscription_item_details": {
                      "invoice_item": null,
                      "proration": %s,
                      "proration_details": { "credited_items": null },
                      "subscription": "%s",
                      "subscription_item": "si_test"
                    }
                  },
                  "period": { "start": %d, "end": %d },
                  "pricing": { "type": "price_details", "price_details": { "price": "price_pro", "product": "prod_pro" } },
                  "quantity": 1
                }
                """.formatted(id("il"), amount, proration, subscriptionId, start, end);
    }

    /**
     * An upgrade billed at once with the cycle anchor reset: credit for unused time, charge for the
     * remaining time (both prorations), and the new plan's full period (not a proration).
     */
    private static String prorationLines(String subscriptionId, long start, long end) {
        long mid = start + (end - start) / 2;
        return subscriptionLine(subscriptionId, mid, end, -1450, true) + ","
                + subscriptionLine(subscriptionId, mid, end, 2450, true) + ","
                + subscriptionLine(subscriptionId, start, end, 4900, false);
    }

    /** A subscription object: period, quantity and price on the item, as the current API sends them. */
    public static String subscription(String subscriptionId, String userId, String status, long periodStart,
            long periodEnd, int quantity, String priceId) {
        return """
                {
                  "id": "%s",
                  "object": "subscription",
                  "cancel_at_period_end": false,
                  "customer": "cus_test",
                  "items": { "object": "list", "data": [ {
                      "id": "si_test",
                      "object": "subscription_item",
                      "current_period_start": %d,
                      "current_period_end": %d,
                      "price": { "id": "%s", "object": "price", "currency": "eur", "unit_amount": 2900 },
                      "quantity": %d
                  } ] },
                  "metadata": { "userId": "%s" },
                  "status": "%s"
                }
                """.formatted(subscriptionId, periodStart, periodEnd, priceId, quantity, userId, status);
    }

    /** A charge whose {@code amount_refunded} is the cumulative total refunded so far. */
    public static String charge(String chargeId, String paymentIntentId, long amount, long amountRefunded) {
        return """
                {
                  "id": "%s",
                  "object": "charge",
                  "amount": %d,
                  "amount_captured": %d,
                  "amount_refunded": %d,
                  "currency": "eur",
                  "payment_intent": "%s",
                  "refunded": %s,
                  "status": "succeeded"
                }
                """.formatted(chargeId, amount, amount, amountRefunded, paymentIntentId, amountRefunded >= amount);
    }

    /**
     * The answer of {@code GET /v1/invoice_payments?payment[type]=payment_intent&payment[payment_intent]=…}:
     * the list of {@code invoice_payment} objects linking a PaymentIntent to the invoice it paid (the
     * link the current API offers, now that a charge carries no {@code invoice}).
     */
    public static String invoicePayments(String invoiceId, String paymentIntentId, long amount) {
        return """
                {
                  "object": "list",
                  "url": "/v1/invoice_payments",
                  "has_more": false,
                  "data": [ {
                    "id": "%s",
                    "object": "invoice_payment",
                    "amount_paid": %d,
                    "amount_requested": %d,
                    "created": %d,
                    "currency": "eur",
                    "invoice": "%s",
                    "is_default": true,
                    "livemode": false,
                    "payment": { "type": "payment_intent", "payment_intent": "%s" },
                    "status": "paid",
                    "status_transitions": { "canceled_at": null, "paid_at": %d }
                  } ]
                }
                """.formatted(id("inpay"), amount, amount, JAN_2025, invoiceId, paymentIntentId, JAN_2025);
    }

    /** An empty {@code invoice_payments} list: the PaymentIntent paid no invoice (a one-off purchase). */
    public static String noInvoicePayments() {
        return """
                { "object": "list", "url": "/v1/invoice_payments", "has_more": false, "data": [] }
                """;
    }

    public static String dispute(String disputeId, String chargeId, String paymentIntentId, long amount) {
        return """
                {
                  "id": "%s",
                  "object": "dispute",
                  "amount": %d,
                  "charge": "%s",
                  "currency": "eur",
                  "payment_intent": "%s",
                  "reason": "fraudulent",
                  "status": "needs_response"
                }
                """.formatted(disputeId, amount, chargeId, paymentIntentId);
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }
}
