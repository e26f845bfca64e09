package com.acme.payments.refund;

import java.math.BigDecimal;

import com.acme.payments.common.web.PlainText;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

/** {@code POST /api/orders/{orderRef}/refunds}: how much, in the order's paid currency, and optionally why. */
record RefundRequest(@NotNull BigDecimal amount, @NotBlank String currency,
        @jakarta.validation.constraints.Size(max = 500) @PlainText String reason) {
}
