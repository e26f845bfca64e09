package com.acme.payments.order;

import java.util.List;

/**
 * A copy of an order's customer e-mail that another feature keeps in its own table (checkout: the stored
 * Stripe session request). Erased in the erasure's transaction, for the orders whose e-mail it just erased,
 * so no copy outlives the order's own; the owner of the table implements it (no call back into that
 * feature from here).
 */
public interface CustomerEmailCopies {

    /** Inside the erasure's transaction: erases the copies kept for these orders; returns how many rows changed. */
    int eraseCustomerEmails(List<Long> orderIds);
}
