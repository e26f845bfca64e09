package com.acme.pspsim;

import java.util.LinkedHashMap;
import java.util.Map;

/** A Refund of a PaymentIntent's charge (mutable, under {@link StripeBook}'s lock). */
final class StripeRefund {

    final String id;
    final String paymentIntent;
    final String charge;
    final long created;
    final long amount;
    final String currency;
    final Map<String, String> metadata;
    final String reason;

    String status = "pending";
    String failureReason;

    StripeRefund(String id, String paymentIntent, String charge, long created, long amount, String currency,
            Map<String, String> metadata, String reason) {
        this.id = id;
        this.paymentIntent = paymentIntent;
        this.charge = charge;
        this.created = created;
        this.amount = amount;
        this.currency = currency;
        this.metadata = Map.copyOf(metadata);
        this.reason = reason;
    }

    /** Counts against the charge's refundable amount: every refund that has not failed or been canceled. */
    boolean holdsAmount() {
        return !"failed".equals(status) && !"canceled".equals(status);
    }

    Map<String, Object> view() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", id);
        v.put("object", "refund");
        v.put("amount", amount);
        v.put("balance_transaction", null);
        v.put("charge", charge);
        v.put("created", created);
        v.put("currency", currency);
        v.put("destination_details", Map.of("type", "card", "card",
                Map.of("reference_status", "pending", "reference_type", "acquirer_reference_number", "type", "refund")));
        if (failureReason != null) {
            v.put("failure_reason", failureReason);
        }
        v.put("metadata", new LinkedHashMap<>(metadata));
        v.put("payment_intent", paymentIntent);
        v.put("reason", reason);
        v.put("receipt_number", null);
        v.put("source_transfer_reversal", null);
        v.put("status", status);
        v.put("transfer_reversal", null);
        return v;
    }
}
