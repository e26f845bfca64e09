package com.acme.payments.common.web;

import jakarta.servlet.ServletRequest;

/**
 * Who is calling, as established from the {@code Authorization: Bearer} credential. A controller
 * takes a {@code Caller} parameter and asks it for the role the endpoint needs.
 */
public sealed interface Caller {

    /** The shop's backend (a key from {@code SHOP_API_KEYS}). */
    record Shop() implements Caller {
    }

    /**
     * An operator (a key from {@code ADMIN_API_KEYS}). {@code name} is the entry's {@code name:} prefix,
     * or {@code admin} for a bare key: the actor recorded with every operator action.
     */
    record Admin(String name) implements Caller {

        public static final String UNNAMED = "admin";
    }

    /** The caller {@link AccessInterceptor} established for this request (anonymous before it ran). */
    static Caller of(ServletRequest request) {
        return request.getAttribute(AccessInterceptor.CALLER) instanceof Caller caller ? caller : new Anonymous();
    }

    /** The operator's name for the audit trail; only an admin acts as an operator. */
    default String actor() {
        if (this instanceof Admin admin) {
            return admin.name();
        }
        throw this instanceof Shop ? new Problems.Forbidden() : new Problems.Unauthenticated();
    }

    /**
     * A bearer that is no configured key: possibly a per-order client token. Only the order feature
     * can tell, by comparing {@link #tokenHash()} with the stored hash of that order's token.
     */
    record Bearer(byte[] tokenHash) implements Caller {
    }

    /** No credential at all. */
    record Anonymous() implements Caller {
    }

    /** Refuses anything but an admin key: 401 without a credential or with an unknown one, 403 otherwise. */
    default void requireAdmin() {
        if (this instanceof Admin) {
            return;
        }
        throw this instanceof Shop ? new Problems.Forbidden() : new Problems.Unauthenticated();
    }

    /** Refuses anything but a shop key. A client token is a valid credential, just not for this: 403. */
    default void requireShop(TokenExists tokenExists) {
        if (this instanceof Shop) {
            return;
        }
        boolean validElsewhere = this instanceof Admin
                || (this instanceof Bearer bearer && tokenExists.test(bearer.tokenHash()));
        throw validElsewhere ? new Problems.Forbidden() : new Problems.Unauthenticated();
    }

    /** Tells whether a token hash belongs to some order (so a foreign token is 403, garbage 401). */
    @FunctionalInterface
    interface TokenExists {
        boolean test(byte[] tokenHash);
    }
}
