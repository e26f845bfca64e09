package com.acme.payments.common.web;

/**
 * Answers questions about per-order client tokens (implemented by the order feature, so that this
 * package does not depend on it).
 */
public interface OrderTokens {

    /** Whether the token hash belongs to the order with this reference, compared in constant time. */
    boolean belongsTo(String orderRef, byte[] tokenHash);

    /** Whether the token hash belongs to any order at all (a valid credential, possibly for another order). */
    boolean exists(byte[] tokenHash);
}
