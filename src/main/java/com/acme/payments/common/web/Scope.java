package com.acme.payments.common.web;

import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a key may do (docs/security.md). A {@code SHOP_API_KEYS} entry holds {@link #ORDERS}; an
 * {@code ADMIN_API_KEYS} entry holds every scope; a key issued at run time holds the scopes it was issued with.
 */
public enum Scope {

    /** Create, read, list and pay orders. */
    ORDERS,
    /** Refunds (create and list), capture, void. */
    PAYMENTS,
    /** Every {@code /api/admin/**} call except keys, and billing's sync. */
    OPERATOR,
    /** Every {@code GET} under {@code /api/} except the keys listing; nothing else. */
    READ,
    /** {@code /api/admin/keys}. */
    KEYS;

    /** The name in requests, answers and problem details: lower case ({@code "payments"}). */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The scope a wire name denotes; empty for anything else (exact, lower case). */
    public static Optional<Scope> fromWireName(String wireName) {
        for (Scope scope : values()) {
            if (scope.wireName().equals(wireName)) {
                return Optional.of(scope);
            }
        }
        return Optional.empty();
    }
}
