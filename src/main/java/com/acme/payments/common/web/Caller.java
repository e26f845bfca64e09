package com.acme.payments.common.web;

import jakarta.servlet.ServletRequest;

/**
 * Who is calling, as the Spring Security chain established it from the {@code Authorization: Bearer}
 * credential ({@link BearerAuthenticationFilter}); {@link AccessRules} has already decided that it may call the
 * endpoint. A controller takes a {@code Caller} parameter for the actor of what it records.
 */
public sealed interface Caller {

    /** A key: configured ({@code SHOP_API_KEYS}, {@code ADMIN_API_KEYS}) or issued at run time. */
    record Key(KeyHolder holder) implements Caller {
    }

    /**
     * A bearer that is no key: possibly a per-order client token. Only the order feature can tell, by
     * comparing {@link #tokenHash()} with the stored hash of that order's token.
     */
    record Bearer(byte[] tokenHash) implements Caller {
    }

    /** No credential at all. */
    record Anonymous() implements Caller {
    }

    /** The caller established for this request (anonymous before the chain ran). */
    static Caller of(ServletRequest request) {
        return request.getAttribute(BearerAuthenticationFilter.CALLER) instanceof Caller caller ? caller
                : new Anonymous();
    }

    /** The key's name for the audit trail: only a key acts as an operator. */
    default String actor() {
        if (this instanceof Key key) {
            return key.holder().name();
        }
        throw new Problems.Unauthenticated();
    }
}
