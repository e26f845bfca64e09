package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeEvent.at;
import static com.acme.payments.stripe.StripeEvent.idOf;
import static com.acme.payments.stripe.StripeEvent.number;
import static com.acme.payments.stripe.StripeEvent.text;

import tools.jackson.databind.JsonNode;

/**
 * Reads a Stripe invoice (webhook payload or API answer) by the paths of the current API: the
 * subscription under {@code parent.subscription_details}, the period on the non-proration line (the
 * invoice's own period_start/end describe the previous period on renewals). Older top-level fields
 * are a fallback only.
 */
final class Invoices {

    static final String CYCLE = "subscription_cycle";

    private Invoices() {
    }

    static String subscriptionId(JsonNode invoice) {
        String id = idOf(invoice, "parent", "subscription_details", "subscription");
        return id != null ? id : idOf(invoice, "subscription");
    }

    static String userId(JsonNode invoice) {
        String fromSubscription = text(invoice, "parent", "subscription_details", "metadata", "userId");
        return cleanId(fromSubscription != null ? fromSubscription : text(invoice, "metadata", "userId"));
    }

    static String conversionEventId(JsonNode invoice) {
        String own = text(invoice, "metadata", "conversionEventId");
        return own != null ? own : text(invoice, "parent", "subscription_details", "metadata", "conversionEventId");
    }

    static String paymentIntentId(JsonNode invoice) {
        JsonNode payments = at(invoice, "payments", "data");
        if (payments != null && payments.isArray()) {
            for (JsonNode payment : payments.values()) {
                String id = idOf(payment, "payment", "payment_intent");
                if (id != null) {
                    return id;
                }
            }
        }
        return idOf(invoice, "payment_intent");
    }

    /** The period of the first non-proration line, or null when the invoice has none. */
    static Period period(JsonNode invoice) {
        JsonNode lines = at(invoice, "lines", "data");
        if (lines == null || !lines.isArray()) {
            return null;
        }
        for (JsonNode line : lines.values()) {
            if (isProration(line)) {
                continue;
            }
            Long start = number(line, "period", "start");
            Long end = number(line, "period", "end");
            if (start != null && end != null && end > start) {
                return new Period(start, end);
            }
        }
        return null;
    }

    private static boolean isProration(JsonNode line) {
        return flag(line, "proration")
                || flag(line, "parent", "subscription_item_details", "proration")
                || flag(line, "parent", "invoice_item_details", "proration");
    }

    private static boolean flag(JsonNode node, String... path) {
        JsonNode value = at(node, path);
        return value != null && value.isBoolean() && value.asBoolean();
    }

    /** A user id from metadata, or null when absent or unusable. */
    static String cleanId(String id) {
        if (id == null) {
            return null;
        }
        String trimmed = id.strip();
        return trimmed.isEmpty() || trimmed.length() > 200 ? null : trimmed;
    }

    record Period(long start, long end) {
    }
}
