package com.acme.payments.stripe;

import java.util.HashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * A verified Stripe event: its id ({@code evt_…}), type, creation time (epoch seconds) and
 * {@code data.object}. Field access stays on the JSON tree: the handler reads exactly the paths the
 * rules name, whatever API version the endpoint is pinned to. {@code links} holds what a
 * {@link StripeEventResolver} read from the Stripe API before the transaction (e.g. the invoice of a
 * charge, which the current API no longer puts in the payload).
 */
public record StripeEvent(String id, String type, long created, JsonNode object, Map<String, String> links) {

    public StripeEvent {
        links = Map.copyOf(links);
    }

    public StripeEvent(String id, String type, long created, JsonNode object) {
        this(id, type, created, object, Map.of());
    }

    /** This event with one more resolved link. */
    public StripeEvent withLink(String name, String value) {
        Map<String, String> more = new HashMap<>(links);
        more.put(name, value);
        return new StripeEvent(id, type, created, object, more);
    }

    /** A link resolved before the transaction, or null. */
    public String link(String name) {
        return links.get(name);
    }

    /** The text at a path of {@code data.object}, or null when absent, null or not a scalar. */
    public String text(String... path) {
        return text(object, path);
    }

    public static String text(JsonNode node, String... path) {
        JsonNode at = at(node, path);
        return at == null || !at.isValueNode() || at.isNull() ? null : at.asString();
    }

    /** The integer at a path, or null when absent or not a number. */
    public static Long number(JsonNode node, String... path) {
        JsonNode at = at(node, path);
        return at != null && at.isIntegralNumber() ? Long.valueOf(at.asLong()) : null;
    }

    /** An id that Stripe sends either as a string or as an expanded object carrying {@code id}. */
    public static String idOf(JsonNode node, String... path) {
        JsonNode at = at(node, path);
        if (at == null || at.isNull()) {
            return null;
        }
        if (at.isString()) {
            return at.asString();
        }
        return at.isObject() ? text(at, "id") : null;
    }

    public static JsonNode at(JsonNode node, String... path) {
        JsonNode at = node;
        for (String step : path) {
            if (at == null || !at.isObject()) {
                return null;
            }
            at = at.get(step);
        }
        return at == null || at.isMissingNode() ? null : at;
    }
}
