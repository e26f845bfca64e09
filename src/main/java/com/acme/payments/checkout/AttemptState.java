package com.acme.payments.checkout;

/**
 * A checkout attempt's state. None is a dead end: IN_FLIGHT is finished by its owner or aged by the
 * sweep; UNKNOWN is reconciled by reference on every later call and by the sweep; READY replays the
 * stored redirect; FAILED is outside the open-attempt index, so the order is free again.
 */
public enum AttemptState {
    IN_FLIGHT, UNKNOWN, READY, FAILED
}
