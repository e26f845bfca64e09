package com.acme.payments.psp;

/**
 * We cannot tell what the PSP did: a timeout, a reset, a 5xx, a body that is not the JSON envelope.
 * The payment may exist. The only safe follow-up is to look it up by the stored reference, never to
 * POST again.
 */
public final class PaymentOutcomeUnknown extends RuntimeException {

    public PaymentOutcomeUnknown(String message, Throwable cause) {
        super(message, cause);
    }

    public PaymentOutcomeUnknown(String message) {
        super(message);
    }
}
