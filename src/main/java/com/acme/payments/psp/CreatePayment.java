package com.acme.payments.psp;

import java.math.BigDecimal;

/**
 * The create-payment request. {@code referenceId} is ours and is stored before the call: it is the
 * only way to find out later what an ambiguous POST did (the Gateway does not deduplicate on it). The webhook
 * URL is added by {@link GatewayClient} from {@link PspProperties#webhookUrl()}.
 *
 * @param refundKey the shop's refund key of a refund (null for a deposit or a second charge's refund)
 * @param fixedRequest what the provider fixed at the claim ({@link PaymentProvider#fixRequest}), stored with
 *        the attempt and handed back on every send and reconcile, so a replay is the request as first sent;
 *        null where the provider fixes nothing (the Gateway) or nothing was stored
 */
public record CreatePayment(String paymentType, String orderRef, BigDecimal amount, String currency,
        String referenceId, String returnUrl, String parentPaymentId, Customer customer, String refundKey,
        String fixedRequest) {

    public static CreatePayment deposit(String orderRef, BigDecimal amount, String currency, String referenceId,
            String returnUrl, Customer customer) {
        return new CreatePayment("DEPOSIT", orderRef, amount, currency, referenceId, returnUrl, null, customer, null,
                null);
    }

    public static CreatePayment refund(String orderRef, BigDecimal amount, String currency, String referenceId,
            String parentPaymentId) {
        return refund(orderRef, amount, currency, referenceId, parentPaymentId, null);
    }

    public static CreatePayment refund(String orderRef, BigDecimal amount, String currency, String referenceId,
            String parentPaymentId, String refundKey) {
        return new CreatePayment("REFUND", orderRef, amount, currency, referenceId, null, parentPaymentId, null,
                refundKey, null);
    }

    /** The same request with what the provider fixed at the claim. */
    public CreatePayment withFixedRequest(String fixed) {
        return new CreatePayment(paymentType, orderRef, amount, currency, referenceId, returnUrl, parentPaymentId,
                customer, refundKey, fixed);
    }

    public boolean isRefund() {
        return "REFUND".equals(paymentType);
    }

    public record Customer(String referenceId, String email) {
        @Override
        public String toString() {
            return "Customer[redacted]";
        }
    }
}
