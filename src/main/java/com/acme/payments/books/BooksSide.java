package com.acme.payments.books;

import java.math.BigDecimal;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One side's record of a mismatch: its state in that side's words (ours: {@code PAID}, {@code DONE/PENDING},
 * …; the PSP's: our {@code PaymentState} names), and the amount with its currency.
 */
@Schema(description = "One side's record: state, amount and currency")
public record BooksSide(String state, BigDecimal amount, String currency) {
}
