package com.acme.payments.psp;

import java.math.BigDecimal;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A payment as the PSP reports it (create/get/find answers and webhooks share this shape). The
 * customer block is deliberately not read: it is never stored or logged by us.
 */
@Schema(description = "The PSP Gateway API's payment object (its calls and states: docs/simulator.md); unknown fields are ignored")
public record PspPayment(String id, String referenceId, String paymentType, String state, BigDecimal amount,
        String currency, String redirectUrl, String errorCode, String errorMessage, String parentPaymentId) {

    public PaymentState paymentState() {
        return PaymentState.of(state);
    }

    @Schema(hidden = true) // not a field of the PSP object
    public boolean isRefund() {
        return "REFUND".equalsIgnoreCase(paymentType);
    }

    @Override
    public String toString() { // ids and state only; amounts and URLs are not secrets but add nothing to logs
        return "PspPayment[id=" + id + ", referenceId=" + referenceId + ", type=" + paymentType + ", state="
                + state + "]";
    }
}
