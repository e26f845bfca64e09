package com.acme.pspsim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A PaymentIntent and its one Charge, as the simulated Stripe holds them (mutable, under
 * {@link StripeBook}'s lock). {@link #view()} is the PaymentIntent object, {@link #chargeView()} the
 * Charge that {@code charge.refunded} carries.
 */
final class StripeIntent {

    final String id;
    final String sessionId;
    final long created;
    final long amount;
    final String currency;
    final String captureMethod;
    final Map<String, String> metadata;
    final String description;
    final String receiptEmail;
    final String clientSecret;

    String status;
    long amountCapturable;
    long amountReceived;
    String paymentMethod;
    String chargeId;
    long chargeCreated;
    long amountRefunded;
    Long canceledAt;
    String cancellationReason;
    Map<String, Object> lastPaymentError;

    StripeIntent(String id, String sessionId, long created, long amount, String currency, String captureMethod,
            Map<String, String> metadata, String description, String receiptEmail) {
        this.id = id;
        this.sessionId = sessionId;
        this.created = created;
        this.amount = amount;
        this.currency = currency;
        this.captureMethod = captureMethod;
        this.metadata = Map.copyOf(metadata);
        this.description = description;
        this.receiptEmail = receiptEmail;
        this.clientSecret = id + "_secret_" + StripeIds.next("", 16);
        this.status = "requires_payment_method";
    }

    Map<String, Object> view() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", id);
        v.put("object", "payment_intent");
        v.put("amount", amount);
        v.put("amount_capturable", amountCapturable);
        v.put("amount_received", amountReceived);
        v.put("application", null);
        v.put("application_fee_amount", null);
        v.put("automatic_payment_methods", null);
        v.put("canceled_at", canceledAt);
        v.put("cancellation_reason", cancellationReason);
        v.put("capture_method", captureMethod);
        v.put("client_secret", clientSecret);
        v.put("confirmation_method", "automatic");
        v.put("created", created);
        v.put("currency", currency);
        v.put("customer", null);
        v.put("description", description);
        v.put("last_payment_error", lastPaymentError);
        v.put("latest_charge", chargeId);
        v.put("livemode", false);
        v.put("metadata", new LinkedHashMap<>(metadata));
        v.put("next_action", null);
        v.put("on_behalf_of", null);
        v.put("payment_method", paymentMethod);
        v.put("payment_method_types", List.of("card"));
        v.put("processing", null);
        v.put("receipt_email", receiptEmail);
        v.put("review", null);
        v.put("setup_future_usage", null);
        v.put("shipping", null);
        v.put("statement_descriptor", null);
        v.put("statement_descriptor_suffix", null);
        v.put("status", status);
        v.put("transfer_data", null);
        v.put("transfer_group", null);
        return v;
    }

    Map<String, Object> chargeView() {
        boolean captured = "succeeded".equals(status);
        long amountCaptured = captured ? amountReceived : 0;
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", chargeId);
        v.put("object", "charge");
        v.put("amount", amount);
        v.put("amount_captured", amountCaptured);
        v.put("amount_refunded", amountRefunded);
        v.put("balance_transaction", null);
        v.put("captured", captured);
        v.put("created", chargeCreated);
        v.put("currency", currency);
        v.put("customer", null);
        v.put("description", description);
        v.put("disputed", false);
        v.put("failure_code", null);
        v.put("failure_message", null);
        v.put("livemode", false);
        v.put("metadata", new LinkedHashMap<>(metadata));
        v.put("paid", true);
        v.put("payment_intent", id);
        v.put("payment_method", paymentMethod);
        v.put("receipt_email", receiptEmail);
        v.put("refunded", captured && amountRefunded >= amountCaptured);
        v.put("status", "succeeded");
        return v;
    }
}
