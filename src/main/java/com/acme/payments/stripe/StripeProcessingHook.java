package com.acme.payments.stripe;

/**
 * Points in the life of one event where tests stop a worker to prove the crash rules (after the claim,
 * inside the transaction, after the commit). No production bean implements it.
 */
public interface StripeProcessingHook {

    default void afterClaim(StripeEvent event) {
    }

    /** Inside the event transaction, after the completion mark and before the business writes. */
    default void beforeBusinessWrites(StripeEvent event, int attempt) {
    }

    /** Inside the event transaction, after the business writes, before the commit. */
    default void afterBusinessWrites(StripeEvent event, int attempt) {
    }

    default void afterCommit(StripeEvent event) {
    }
}
