package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.PspCallMetrics.FIND;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.acme.payments.psp.PaymentProvider.ListingPage;
import com.acme.payments.psp.PspPayment;

import tools.jackson.databind.JsonNode;

/**
 * The reconciliation's listing at Stripe: {@code GET /v1/payment_intents}, then {@code GET /v1/refunds}, both
 * with {@code created[gte]}/{@code created[lte]} and {@code limit}, every page by {@code starting_after}
 * while {@code has_more}. Stripe's {@code created} is in whole seconds, so {@code [from, to)} is asked as the
 * seconds {@code ceil(from)} to {@code ceil(to) - 1}, both inclusive. The cursor names the listing and
 * where it stands ({@code pi:<last id>}, {@code re:<last id>}; empty after the colon: its first page).
 *
 * <p>A PaymentIntent carrying {@code metadata[attempt]} is ours and read strictly (one that cannot be booked
 * fails the page, as a look-up's would); any other PaymentIntent, and every refund, may be another
 * integration's (billing's purchases share the account), so each is read leniently and one we cannot read
 * is left out: the reconciliation keeps only those it knows or that refund one of ours.
 */
final class StripeListing {

    private static final String INTENTS = "pi:";
    private static final String REFUNDS = "re:";

    private final StripePspClient stripe;

    StripeListing(StripePspClient stripe) {
        this.stripe = stripe;
    }

    ListingPage page(Instant from, Instant to, String cursor, int pageSize) {
        String at = cursor == null ? INTENTS : cursor;
        boolean intents = at.startsWith(INTENTS);
        if (!intents && !at.startsWith(REFUNDS)) {
            throw new IllegalArgumentException("not a Stripe listing cursor: " + cursor);
        }
        String after = at.substring(3);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("created[gte]", Long.toString(ceilSeconds(from)));
        query.put("created[lte]", Long.toString(ceilSeconds(to) - 1));
        query.put("limit", Integer.toString(pageSize));
        if (!after.isEmpty()) {
            query.put("starting_after", after);
        }
        Page page = stripe.get(FIND, intents ? "/v1/payment_intents" : "/v1/refunds", query,
                list -> read(list, intents));
        String next;
        if (page.hasMore()) {
            next = (intents ? INTENTS : REFUNDS) + page.lastId();
        } else {
            next = intents ? REFUNDS : null;
        }
        return new ListingPage(page.items(), next);
    }

    private record Page(List<PspPayment> items, boolean hasMore, String lastId) {
    }

    private static Page read(JsonNode list, boolean intents) {
        JsonNode data = list.get("data");
        if (data == null || !data.isArray()) {
            throw new IllegalArgumentException("a list without a data array");
        }
        List<PspPayment> items = new ArrayList<>();
        for (JsonNode object : data.values()) {
            boolean ours = intents && StripeObjects.text(object.path("metadata"), "attempt") != null;
            if (ours) {
                items.add(StripeObjects.fromPaymentIntent(object));
                continue;
            }
            try {
                items.add(StripeObjects.read(object));
            } catch (RuntimeException unreadable) {
                // not ours by its metadata, and not a shape we read: another integration's object
            }
        }
        boolean hasMore = list.path("has_more").asBoolean(false);
        String lastId = data.isEmpty() ? null : StripeObjects.text(data.get(data.size() - 1), "id");
        if (hasMore && lastId == null) {
            throw new IllegalArgumentException("a page with more after it and no id to start the next from");
        }
        return new Page(items, hasMore, lastId);
    }

    private static long ceilSeconds(Instant instant) {
        return instant.getNano() == 0 ? instant.getEpochSecond() : instant.getEpochSecond() + 1;
    }
}
