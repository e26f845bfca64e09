package com.acme.payments.psp.stripe;

import com.acme.payments.stripe.StripeFixtures;

/**
 * Stripe's objects of a one-off payment as the webhook endpoint receives them at the pinned API version
 * {@code 2025-08-27.basil} (Stripe's API reference: the Checkout Session, PaymentIntent, Refund and Dispute
 * objects): minor units, lower-case currency, our {@code metadata[orderRef]} and {@code metadata[attempt]}
 * on the session and its PaymentIntent, {@code client_reference_id} the attempt, {@code metadata[refundKey]}
 * and {@code metadata[referenceId]} on our refunds. Since the 2022-08-01 version a session's PaymentIntent
 * exists only once the customer pays, so an open or expired session carries {@code payment_intent: null}.
 */
public final class StripePaymentEvents {

    private StripePaymentEvents() {
    }

    static String event(String eventId, String type, String object) {
        return StripeFixtures.event(eventId, type, object);
    }

    /** {@code status} open / complete / expired; {@code paymentStatus} paid / unpaid. */
    public static String session(String sessionId, String paymentIntentId, String attempt, String orderRef, String status,
            String paymentStatus, long amountTotal) {
        return """
                {
                  "id": "%s",
                  "object": "checkout.session",
                  "amount_subtotal": %d,
                  "amount_total": %d,
                  "cancel_url": "https://shop.test/return",
                  "client_reference_id": "%s",
                  "created": %d,
                  "currency": "eur",
                  "customer": null,
                  "customer_details": { "email": "buyer@example.com", "name": null, "phone": null, "tax_exempt": "none" },
                  "customer_email": "buyer@example.com",
                  "expires_at": %d,
                  "livemode": false,
                  "metadata": { "orderRef": "%s", "attempt": "%s" },
                  "mode": "payment",
                  "payment_intent": %s,
                  "payment_method_types": ["card", "sepa_debit"],
                  "payment_status": "%s",
                  "status": "%s",
                  "success_url": "https://shop.test/return",
                  "url": %s
                }
                """.formatted(sessionId, amountTotal, amountTotal, attempt, now(), now() + 3600, orderRef, attempt,
                quoted(paymentIntentId), paymentStatus, status,
                "open".equals(status) ? quoted("https://checkout.stripe.com/c/pay/" + sessionId) : "null");
    }

    /**
     * {@code status} requires_payment_method / processing / requires_capture / canceled / succeeded;
     * {@code captureMethod} automatic_async (the default) or manual.
     */
    static String paymentIntent(String paymentIntentId, String attempt, String orderRef, String status, long amount,
            String captureMethod) {
        boolean succeeded = "succeeded".equals(status);
        boolean capturable = "requires_capture".equals(status);
        boolean failed = "requires_payment_method".equals(status);
        return """
                {
                  "id": "%s",
                  "object": "payment_intent",
                  "amount": %d,
                  "amount_capturable": %d,
                  "amount_received": %d,
                  "canceled_at": %s,
                  "cancellation_reason": %s,
                  "capture_method": "%s",
                  "created": %d,
                  "currency": "eur",
                  "last_payment_error": %s,
                  "latest_charge": %s,
                  "livemode": false,
                  "metadata": { "orderRef": "%s", "attempt": "%s" },
                  "payment_method_types": ["card"],
                  "status": "%s"
                }
                """.formatted(paymentIntentId, amount, capturable ? amount : 0, succeeded ? amount : 0,
                "canceled".equals(status) ? String.valueOf(now()) : "null",
                "canceled".equals(status) ? quoted("abandoned") : "null", captureMethod, now(),
                failed ? """
                        { "code": "card_declined", "decline_code": "insufficient_funds", "message": "Your card has insufficient funds.", "type": "card_error" }"""
                        : "null",
                succeeded || capturable ? quoted("ch_" + paymentIntentId.substring(3)) : "null", orderRef, attempt,
                status);
    }

    /** {@code status} pending / requires_action / succeeded / failed / canceled. */
    static String refund(String refundId, String paymentIntentId, String status, long amount, String refundKey,
            String referenceId, String failureReason) {
        return """
                {
                  "id": "%s",
                  "object": "refund",
                  "amount": %d,
                  "balance_transaction": "txn_%s",
                  "charge": "ch_%s",
                  "created": %d,
                  "currency": "eur",
                  "destination_details": { "card": { "reference_status": "pending", "reference_type": "acquirer_reference_number", "type": "refund" }, "type": "card" },
                  "failure_balance_transaction": %s,
                  "failure_reason": %s,
                  "metadata": { "refundKey": "%s", "referenceId": "%s" },
                  "payment_intent": "%s",
                  "reason": "requested_by_customer",
                  "receipt_number": null,
                  "status": "%s"
                }
                """.formatted(refundId, amount, refundId.substring(3), paymentIntentId.substring(3), now(),
                "failed".equals(status) ? quoted("txn_f" + refundId.substring(3)) : "null", quoted(failureReason),
                refundKey, referenceId, paymentIntentId, status);
    }

    /** A charge of our PaymentIntent; {@code amount_refunded} is cumulative. */
    static String charge(String paymentIntentId, long amount, long amountRefunded) {
        return StripeFixtures.charge("ch_" + paymentIntentId.substring(3), paymentIntentId, amount, amountRefunded);
    }

    static String dispute(String disputeId, String paymentIntentId, long amount, String reason) {
        return """
                {
                  "id": "%s",
                  "object": "dispute",
                  "amount": %d,
                  "balance_transactions": [],
                  "charge": "ch_%s",
                  "created": %d,
                  "currency": "eur",
                  "enhanced_eligibility_types": [],
                  "evidence_details": { "due_by": %d, "has_evidence": false, "past_due": false, "submission_count": 0 },
                  "is_charge_refundable": true,
                  "livemode": false,
                  "metadata": {},
                  "network_reason_code": "10.4",
                  "payment_intent": "%s",
                  "reason": "%s",
                  "status": "needs_response"
                }
                """.formatted(disputeId, amount, paymentIntentId.substring(3), now(), now() + 7 * 86_400,
                paymentIntentId, reason);
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }
}
