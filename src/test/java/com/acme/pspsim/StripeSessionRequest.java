package com.acme.pspsim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parameters of {@code POST /v1/checkout/sessions} the simulator models, checked as Stripe checks
 * them: {@code mode=payment}, line items with {@code price_data} (one currency), {@code expires_at}
 * from 30 minutes to 24 hours ahead (default 24 h). Parameters Stripe knows but the simulator does not
 * model are accepted and ignored; unknown ones are refused, as Stripe refuses them.
 */
record StripeSessionRequest(String currency, long amountTotal, List<StripeSession.LineItem> lineItems,
        long expiresAt, String clientReferenceId, String customerEmail, Map<String, String> metadata,
        Map<String, String> intentMetadata, String intentDescription, String captureMethod, String successUrl,
        String cancelUrl) {

    private static final Set<String> MODELLED = Set.of("mode", "line_items", "client_reference_id", "metadata",
            "success_url", "cancel_url", "expires_at", "customer_email", "payment_intent_data");
    private static final Set<String> IGNORED = Set.of("expand", "locale", "payment_method_types", "submit_type",
            "billing_address_collection", "ui_mode", "customer_creation", "allow_promotion_codes",
            "phone_number_collection", "custom_text", "automatic_tax", "payment_method_options");
    private static final long MIN_LIFETIME = 30 * 60;
    private static final long MAX_LIFETIME = 24 * 60 * 60;

    static StripeSessionRequest from(StripeForm form, long now) {
        for (String root : form.roots()) {
            if (!MODELLED.contains(root) && !IGNORED.contains(root)) {
                throw StripeError.invalid(root, "Received unknown parameter: " + root);
            }
        }
        String mode = form.get("mode");
        if (mode == null || mode.isBlank()) {
            throw StripeError.missing("mode");
        }
        if (!"payment".equals(mode)) {
            throw StripeError.invalid("mode", "The simulator supports mode=payment only, not " + mode + ".");
        }
        List<StripeSession.LineItem> items = new ArrayList<>();
        for (int i = 0; form.roots().contains("line_items") && hasItem(form, i); i++) {
            items.add(item(form, i));
        }
        if (items.isEmpty()) {
            throw StripeError.missing("line_items");
        }
        String currency = items.get(0).currency();
        if (items.stream().anyMatch(it -> !it.currency().equals(currency))) {
            throw StripeError.invalid("line_items", "All line items must have the same currency.");
        }
        long total = items.stream().mapToLong(it -> Math.multiplyExact(it.unitAmount(), it.quantity())).sum();
        Long expires = form.integer("expires_at");
        long expiresAt = expires == null ? now + MAX_LIFETIME : expires;
        if (expiresAt - now < MIN_LIFETIME) {
            throw StripeError.invalid("expires_at", "The `expires_at` timestamp must be at least 30 minutes from "
                    + "Checkout Session creation.");
        }
        if (expiresAt - now > MAX_LIFETIME) {
            throw StripeError.invalid("expires_at", "The `expires_at` timestamp must be less than 24 hours from "
                    + "Checkout Session creation.");
        }
        String capture = form.get("payment_intent_data[capture_method]");
        if (capture != null && !Set.of("automatic", "automatic_async", "manual").contains(capture)) {
            throw StripeError.invalid("payment_intent_data[capture_method]", "Invalid capture_method: " + capture);
        }
        String reference = form.get("client_reference_id");
        if (reference != null && reference.length() > 200) {
            throw StripeError.invalid("client_reference_id", "client_reference_id may be at most 200 characters.");
        }
        return new StripeSessionRequest(currency, total, items, expiresAt, reference, form.get("customer_email"),
                form.children("metadata"), form.children("payment_intent_data[metadata]"),
                form.get("payment_intent_data[description]"), capture == null ? "automatic" : capture,
                form.get("success_url"), form.get("cancel_url"));
    }

    private static boolean hasItem(StripeForm form, int i) {
        String prefix = "line_items[" + i + "]";
        return form.keys().stream().anyMatch(k -> k.startsWith(prefix));
    }

    private static StripeSession.LineItem item(StripeForm form, int i) {
        String p = "line_items[" + i + "]";
        if (form.has(p + "[price]")) {
            throw StripeError.invalid(p + "[price]", "The simulator knows no Prices: use " + p + "[price_data].");
        }
        String currency = form.get(p + "[price_data][currency]");
        if (currency == null) {
            throw StripeError.missing(p + "[price_data][currency]");
        }
        if (!currency.matches("[a-z]{3}")) {
            throw StripeError.invalid(p + "[price_data][currency]", "Invalid currency: " + currency
                    + ". Stripe currently supports these currencies in lower case: usd, eur, gbp, ….");
        }
        Long unit = form.integer(p + "[price_data][unit_amount]");
        if (unit == null) {
            throw StripeError.missing(p + "[price_data][unit_amount]");
        }
        if (unit < 0) {
            throw StripeError.invalid(p + "[price_data][unit_amount]", "This value must be greater than or equal to 0.");
        }
        String name = form.get(p + "[price_data][product_data][name]");
        if (name == null || name.isBlank()) {
            throw StripeError.missing(p + "[price_data][product_data][name]");
        }
        Long quantity = form.integer(p + "[quantity]");
        if (quantity == null) {
            throw StripeError.missing(p + "[quantity]");
        }
        if (quantity < 1) {
            throw StripeError.invalid(p + "[quantity]", "This value must be greater than or equal to 1.");
        }
        return new StripeSession.LineItem(name, currency, unit, quantity);
    }
}
