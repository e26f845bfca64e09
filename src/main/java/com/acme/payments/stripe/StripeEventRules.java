package com.acme.payments.stripe;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import com.acme.payments.common.money.Amounts;
import com.acme.payments.common.web.StorableText;

import tools.jackson.databind.JsonNode;

/**
 * What a verified Stripe event must hold before any of its values reaches a statement: text PostgreSQL can
 * store (no NUL, no unpaired surrogate) anywhere in {@code data.object}, ids and the metadata we keep no
 * longer than {@link #MAX_ID}, and ISO-4217 currencies. An event that breaks one is signed garbage: a
 * redelivery brings the same bytes, so it is recorded as faulted and answered 200 instead of failing a
 * constraint halfway through its transaction (a 500 Stripe would retry for three days). The same limits as
 * the PSP's payload rules. Pure, so a test can reuse it.
 */
final class StripeEventRules {

    /** The longest id or kept metadata value (Stripe's own ids are far shorter). */
    static final int MAX_ID = 255;
    /** What a faulted event's stored id keeps of an id that cannot be stored as it is. */
    private static final int KEPT_PREFIX = 64;

    /** Fields whose value is an id (or an expanded object with one), wherever they appear. */
    private static final Set<String> ID_FIELDS = Set.of("id", "customer", "subscription", "payment_intent", "invoice",
            "charge", "price", "product", "client_reference_id");
    /** The metadata keys the service keeps (billing's and the payments'); others are Stripe's business. */
    private static final Set<String> KEPT_METADATA = Set.of("userId", "productId", "conversionEventId", "attempt",
            "referenceId", "orderRef");
    private static final Pattern STRIPE_CURRENCY = Pattern.compile("[a-z]{3}|[A-Z]{3}");

    private StripeEventRules() {
    }

    /** Why the event cannot be stored, or empty when every value can. */
    static Optional<String> faultIn(StripeEvent event) {
        Optional<String> id = idFault("id", event.id());
        return id.isPresent() ? id : faultIn(event.object(), "data.object", null);
    }

    private static Optional<String> faultIn(JsonNode node, String path, String name) {
        if (node == null) {
            return Optional.empty();
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (!StorableText.isStorable(field.getKey())) {
                    return Optional.of(path + " has a field name with a NUL character or an unpaired surrogate");
                }
                Optional<String> fault = faultIn(field.getValue(), path + "." + field.getKey(), field.getKey());
                if (fault.isPresent()) {
                    return fault;
                }
                if ("metadata".equals(field.getKey()) && field.getValue().isObject()) {
                    for (String key : KEPT_METADATA) {
                        Optional<String> kept = idFault(path + ".metadata." + key, field.getValue().get(key));
                        if (kept.isPresent()) {
                            return kept;
                        }
                    }
                }
            }
            return Optional.empty();
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> fault = faultIn(node.get(i), path + "[" + i + "]", null);
                if (fault.isPresent()) {
                    return fault;
                }
            }
            return Optional.empty();
        }
        if (node.isString() && !StorableText.isStorable(node.asString())) {
            return Optional.of(path + " contains a NUL character or an unpaired surrogate");
        }
        if (name != null && ID_FIELDS.contains(name)) {
            return idFault(path, node);
        }
        if ("currency".equals(name) && !node.isNull() && !isCurrency(node)) {
            return Optional.of(path + " is not an ISO-4217 currency code");
        }
        return Optional.empty();
    }

    private static Optional<String> idFault(String path, JsonNode value) {
        return value == null || !value.isValueNode() || value.isNull() ? Optional.empty()
                : idFault(path, value.asString());
    }

    private static Optional<String> idFault(String path, String value) {
        if (value == null) {
            return Optional.empty();
        }
        if (!StorableText.isStorable(value)) {
            return Optional.of(path + " contains a NUL character or an unpaired surrogate");
        }
        if (value.length() > MAX_ID) {
            return Optional.of(path + " is " + value.length() + " characters, at most " + MAX_ID);
        }
        return Optional.empty();
    }

    private static boolean isCurrency(JsonNode value) {
        return value.isString() && STRIPE_CURRENCY.matcher(value.asString()).matches()
                && Amounts.isCurrencyCode(value.asString().toUpperCase(Locale.ROOT));
    }

    /**
     * The id a faulted event is kept under: the id itself when it can be stored; else its first characters with
     * NULs and unpaired surrogates written as {@code \\uXXXX}, and a digest of the whole id, so a redelivery finds
     * the same row and two different ids do not share one.
     */
    static String storableId(String id) {
        if (StorableText.isStorable(id) && id.length() <= MAX_ID) {
            return id;
        }
        StringBuilder kept = new StringBuilder();
        for (int i = 0; i < id.length() && kept.length() < KEPT_PREFIX; i++) {
            char c = id.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < id.length()
                    && Character.isLowSurrogate(id.charAt(i + 1));
            if (paired) {
                kept.append(c).append(id.charAt(++i));
            } else if (c == 0 || Character.isSurrogate(c)) {
                kept.append(String.format("\\u%04x", (int) c));
            } else {
                kept.append(c);
            }
        }
        return kept + "…#" + digest(id);
    }

    /** SHA-256 of the id's UTF-16 code units (an unpaired surrogate included), the first 16 hex digits. */
    private static String digest(String id) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (int i = 0; i < id.length(); i++) {
                char c = id.charAt(i);
                sha.update((byte) (c >> 8));
                sha.update((byte) c);
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
