package com.acme.pspsim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Checkout Session in {@code payment} mode as the simulated Stripe holds it. Mutable, changed only
 * under {@link StripeBook}'s lock; {@link #view()} is the object of the API and of events, with the
 * fields of the pinned version ({@code 2025-08-27.basil}) that a hosted payment-mode session carries.
 * Since 2022-08-01 its PaymentIntent is created when the customer confirms, so {@code payment_intent}
 * is null until then.
 */
final class StripeSession {

    record LineItem(String name, String currency, long unitAmount, long quantity) {
    }

    final long seq;
    final String id;
    final long created;
    final long expiresAt;
    final String currency;
    final long amountTotal;
    final List<LineItem> lineItems;
    final String clientReferenceId;
    final String customerEmail;
    final Map<String, String> metadata;
    final Map<String, String> intentMetadata;
    final String intentDescription;
    final String captureMethod;
    final String successUrl;
    final String cancelUrl;
    final String pageUrl;
    /** Invisible to listings until this epoch millisecond (the {@code invisible} fault). */
    final long hiddenUntilMs;

    String status = "open";
    String paymentStatus = "unpaid";
    String paymentIntent;

    StripeSession(long seq, String id, long created, long expiresAt, String currency, long amountTotal,
            List<LineItem> lineItems, String clientReferenceId, String customerEmail, Map<String, String> metadata,
            Map<String, String> intentMetadata, String intentDescription, String captureMethod, String successUrl,
            String cancelUrl, String pageUrl, long hiddenUntilMs) {
        this.seq = seq;
        this.id = id;
        this.created = created;
        this.expiresAt = expiresAt;
        this.currency = currency;
        this.amountTotal = amountTotal;
        this.lineItems = List.copyOf(lineItems);
        this.clientReferenceId = clientReferenceId;
        this.customerEmail = customerEmail;
        this.metadata = Map.copyOf(metadata);
        this.intentMetadata = Map.copyOf(intentMetadata);
        this.intentDescription = intentDescription;
        this.captureMethod = captureMethod;
        this.successUrl = successUrl;
        this.cancelUrl = cancelUrl;
        this.pageUrl = pageUrl;
        this.hiddenUntilMs = hiddenUntilMs;
    }

    boolean open() {
        return "open".equals(status);
    }

    Map<String, Object> view() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", id);
        v.put("object", "checkout.session");
        v.put("adaptive_pricing", null);
        v.put("after_expiration", null);
        v.put("allow_promotion_codes", null);
        v.put("amount_subtotal", amountTotal);
        v.put("amount_total", amountTotal);
        v.put("automatic_tax", Map.of("enabled", false));
        v.put("billing_address_collection", null);
        v.put("cancel_url", cancelUrl);
        v.put("client_reference_id", clientReferenceId);
        v.put("client_secret", null);
        v.put("created", created);
        v.put("currency", currency);
        v.put("customer", null);
        v.put("customer_creation", "if_required");
        v.put("customer_details", "open".equals(status) ? null : customerDetails());
        v.put("customer_email", customerEmail);
        v.put("expires_at", expiresAt);
        v.put("invoice", null);
        v.put("livemode", false);
        v.put("locale", null);
        v.put("metadata", new LinkedHashMap<>(metadata));
        v.put("mode", "payment");
        v.put("payment_intent", paymentIntent);
        v.put("payment_link", null);
        v.put("payment_method_collection", "if_required");
        v.put("payment_method_types", List.of("card"));
        v.put("payment_status", paymentStatus);
        v.put("recovered_from", null);
        v.put("setup_intent", null);
        v.put("status", status);
        v.put("submit_type", null);
        v.put("subscription", null);
        v.put("success_url", successUrl);
        v.put("total_details", Map.of("amount_discount", 0, "amount_shipping", 0, "amount_tax", 0));
        v.put("ui_mode", "hosted");
        v.put("url", open() ? pageUrl : null); // "only present when the session is active"
        return v;
    }

    private Map<String, Object> customerDetails() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("email", customerEmail != null ? customerEmail : "customer@example.test");
        d.put("name", null);
        d.put("phone", null);
        return d;
    }
}
