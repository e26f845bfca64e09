package com.acme.payments.billing;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.springframework.stereotype.Component;

import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.OutboxStore;

/**
 * The billing side effects, written to the outbox inside the business transaction with the bodies of
 * the sink contract. The source id (the Stripe event id, or the invoice id for reconciliation) makes
 * the sink's {@code Idempotency-Key}; nothing here is generated at emission.
 */
@Component
class Effects {

    private final OutboxStore outbox;

    Effects(OutboxStore outbox) {
        this.outbox = outbox;
    }

    void notice(String kind, String sourceId, String userId, String subscriptionId, Long periodStart,
            String portalUrl) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", kind);
        body.put("userId", userId);
        putIfPresent(body, "subscriptionId", subscriptionId);
        putIfPresent(body, "periodStart", periodStart);
        putIfPresent(body, "portalUrl", portalUrl);
        outbox.enqueue(new OutboxEntry(kind, subscriptionId != null ? "subscription" : "user",
                subscriptionId != null ? subscriptionId : userId, sourceId, body));
    }

    /** The server-side conversion; its id is the one the shop put in metadata.conversionEventId. */
    void conversion(String sourceId, String conversionEventId, long amountMinor, String currency, String source,
            String aggregateType, String aggregateId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event_id", conversionEventId);
        body.put("event_name", "Purchase");
        body.put("value", major(amountMinor, currency).toPlainString());
        body.put("currency", currency.toUpperCase(Locale.ROOT));
        body.put("source", source);
        outbox.enqueue(new OutboxEntry("conversion", aggregateType, aggregateId, sourceId, body));
    }

    void disputeOpened(String sourceId, String disputeId, String chargeId, long amountMinor, String currency,
            String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", "dispute_opened");
        body.put("chargeId", chargeId);
        body.put("amount", major(amountMinor, currency).toPlainString());
        body.put("currency", currency.toUpperCase(Locale.ROOT));
        body.put("disputeId", disputeId);
        putIfPresent(body, "reason", reason);
        outbox.enqueue(new OutboxEntry("dispute_opened", "charge", chargeId, sourceId, body));
    }

    /** Stripe's minor units as a decimal in major units, with the currency's ISO-4217 fraction digits. */
    static BigDecimal major(long minor, String currency) {
        int digits = 2;
        try {
            digits = Math.max(0, Currency.getInstance(currency.toUpperCase(Locale.ROOT)).getDefaultFractionDigits());
        } catch (IllegalArgumentException unknownCurrency) {
            // keep two digits, Stripe's default for currencies Java does not know
        }
        return BigDecimal.valueOf(minor, digits);
    }

    private static void putIfPresent(Map<String, Object> body, String key, Object value) {
        if (value != null) {
            body.put(key, value);
        }
    }
}
