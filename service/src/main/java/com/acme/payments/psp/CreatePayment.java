package com.acme.payments.psp;

import java.math.BigDecimal;

/**
 * The create-payment request. {@code referenceId} is ours and is stored before the call: it is the
 * only way to find out later what an ambiguous POST did (the PSP does not deduplicate on it). The webhook
 * URL is added by {@link GatewayClient} from {@link PspProperties#webhookUrl()}.
 */
public record CreatePayment(String paymentType, String orderRef, BigDecimal amount, String currency,
        String referenceId, String returnUrl, String parentPaymentId, Customer customer) {

    public static CreatePayment deposit(String orderRef, BigDecimal amount, String currency, String referenceId,
            String returnUrl, Customer customer) {
        return new CreatePayment("DEPOSIT", orderRef, amount, currency, referenceId, returnUrl, null, customer);
    }

    public static CreatePayment refund(String orderRef, BigDecimal amount, String currency, String referenceId,
            String parentPaymentId) {
        return new CreatePayment("REFUND", orderRef, amount, currency, referenceId, null, parentPaymentId, null);
    }

    public record Customer(String referenceId, String email) {
        @Override
        public String toString() {
            return "Customer[redacted]";
        }
    }
}
