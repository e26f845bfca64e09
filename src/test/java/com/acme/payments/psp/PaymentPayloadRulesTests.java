package com.acme.payments.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.acme.payments.psp.PaymentPayloadFault.Kind;

/** The edges of the payload rules: what is exactly bookable passes, one step past it is a fault. */
class PaymentPayloadRulesTests {

    @ParameterizedTest(name = "{0} {1} {2} → {3}")
    @CsvSource(nullValues = "-", value = {
            "COMPLETED, 1300,        JPY, -",
            "COMPLETED, 1300.0,      JPY, -",               // trailing zeros are no fraction digits
            "COMPLETED, 1300.5,      JPY, FRACTION_DIGITS",
            "COMPLETED, 13.10,       EUR, -",
            "COMPLETED, 13.100,      EUR, -",
            "COMPLETED, 13.101,      EUR, FRACTION_DIGITS",
            "COMPLETED, 13.001,      BHD, -",
            "COMPLETED, 13.0001,     BHD, FRACTION_DIGITS",
            "COMPLETED, 0.01,        EUR, -",
            "COMPLETED, 0,           EUR, ZERO_AMOUNT",
            "PENDING,   0,           EUR, -",               // zero is a fault only for money that moved
            "DECLINED,  -0.01,       EUR, NEGATIVE_AMOUNT",
            "COMPLETED, 999999999999.99, EUR, -",
            "COMPLETED, 1000000000000, EUR, AMOUNT_TOO_LARGE",
            "COMPLETED, 13.00,       eur, CURRENCY",        // ISO-4217 codes are upper case
            "COMPLETED, 13.00,       EURO, CURRENCY",
            "COMPLETED, 13.00,       XXX, CURRENCY",        // "no currency" (and funds, metals): not bookable
            "COMPLETED, -,           EUR, MISSING_AMOUNT",
            "PENDING,   -,           -,   -" })
    @DisplayName("amounts and currencies at the edge of what can be booked")
    void amountsAndCurrencies(String state, String amount, String currency, String fault) {
        PspPayment payment = new PspPayment("pay-1", "chk_1", "DEPOSIT", state,
                amount == null ? null : new BigDecimal(amount), currency, null, null, null, null);
        assertThat(PaymentPayloadRules.faultIn(payment).map(PaymentPayloadFault::kind).orElse(null))
                .isEqualTo(fault == null ? null : Kind.valueOf(fault));
    }

    @ParameterizedTest(name = "{0} of {1} characters → {2}")
    @CsvSource(nullValues = "-", value = {
            "id, 255, -", "id, 256, ID_TOO_LONG",
            "referenceId, 255, -", "referenceId, 256, TEXT_TOO_LONG",
            "parentPaymentId, 256, TEXT_TOO_LONG", "errorCode, 256, TEXT_TOO_LONG", "state, 256, TEXT_TOO_LONG" })
    @DisplayName("ids, references and codes: 255 characters are booked, 256 are a fault")
    void textLengths(String field, int length, String fault) {
        String text = "x".repeat(length);
        PspPayment payment = new PspPayment(field.equals("id") ? text : "pay-1",
                field.equals("referenceId") ? text : "chk_1", "REFUND", field.equals("state") ? text : "PENDING",
                new BigDecimal("1.00"), "EUR", null, field.equals("errorCode") ? text : null, null,
                field.equals("parentPaymentId") ? text : null);
        assertThat(PaymentPayloadRules.faultIn(payment).map(PaymentPayloadFault::kind).orElse(null))
                .isEqualTo(fault == null ? null : Kind.valueOf(fault));
    }
}
