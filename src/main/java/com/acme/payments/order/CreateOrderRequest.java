package com.acme.payments.order;

import java.math.BigDecimal;

import com.acme.payments.common.web.PlainText;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** {@code POST /api/orders}: amount and currency are checked further by {@code Amounts}. */
record CreateOrderRequest(
        @NotBlank @Pattern(regexp = OrderRefs.PATTERN, message = "must be 1-64 characters of A-Z a-z 0-9 . _ : -") String orderRef,
        @NotNull BigDecimal amount,
        @NotBlank String currency,
        @NotNull @Valid Customer customer) {

    record Customer(@NotBlank @Size(max = 128) @PlainText String referenceId,
            @Email @Size(max = 254) @PlainText String email) {
        @Override
        public String toString() {
            return "Customer[redacted]";
        }
    }
}
