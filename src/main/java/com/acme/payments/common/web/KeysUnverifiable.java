package com.acme.payments.common.web;

/**
 * A key that may be one issued at run time could not be checked: this instance's copy of the issued keys is too
 * old to trust and the database cannot be read. Neither "yes" (a revocation may be unseen) nor "no" (the key may
 * be valid): the request is answered 503 {@code database-unavailable}, as any request needing the database is.
 */
public class KeysUnverifiable extends RuntimeException {

    public KeysUnverifiable() {
        super("issued keys cannot be read", null, false, false);
    }
}
