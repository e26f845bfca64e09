package com.acme.payments.psp;

/**
 * A signed, parseable payment object that lacks what applying its state needs (a COMPLETED deposit
 * without amount or currency). Not the PSP's current truth: the receipt stays open and the replay job
 * reads the payment from the PSP instead.
 */
public class PaymentPayloadFault extends RuntimeException {

    public PaymentPayloadFault(String message) {
        super(message);
    }
}
