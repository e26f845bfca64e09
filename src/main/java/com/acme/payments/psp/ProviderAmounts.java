package com.acme.payments.psp;

import java.math.BigDecimal;
import java.util.Optional;

import org.springframework.stereotype.Component;

import com.acme.payments.order.ChargeableAmounts;

/** The order's question about amounts, answered by the active provider's own currency rules. */
@Component
class ProviderAmounts implements ChargeableAmounts {

    private final PaymentProvider provider;

    ProviderAmounts(PaymentProvider provider) {
        this.provider = provider;
    }

    @Override
    public Optional<String> refuses(BigDecimal amount, String currency) {
        return provider.refusesAmount(amount, currency);
    }
}
