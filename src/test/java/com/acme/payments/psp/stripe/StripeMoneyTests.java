package com.acme.payments.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.acme.payments.stripe.StripeApiClient;

/** Stripe's currency table, row by row (docs.stripe.com/currencies): minor units, special cases, minimums. */
class StripeMoneyTests {

    @ParameterizedTest(name = "{0} {1} → {2}")
    @CsvSource({
            // two-decimal (the default)
            "10.00,   USD, 1000", "0.50, EUR, 50", "13.37, GBP, 1337",
            // zero-decimal: the amount as it is
            "500,     JPY, 500", "1000, KRW, 1000", "7, BIF, 7", "7, CLP, 7", "7, DJF, 7", "7, GNF, 7", "7, KMF, 7",
            "7, PYG, 7", "7, RWF, 7", "7, VND, 7", "7, VUV, 7", "7, XAF, 7", "7, XOF, 7", "7, XPF, 7",
            // MGA: two ISO digits, zero-decimal at Stripe
            "500,     MGA, 500", "500.00, MGA, 500",
            // three-decimal ×1000
            "1.230,   BHD, 1230", "12.340, JOD, 12340", "0.010, KWD, 10", "5, OMR, 5000", "2.500, TND, 2500",
            // ISK and UGX: zero-decimal in effect, but sent as a two-decimal value ending in 00 (Stripe's
            // special cases for charges, which win over UGX's place in its zero-decimal list)
            "5,       ISK, 500", "5, UGX, 500", "5000, UGX, 500000",
            // HUF and TWD: special for payouts only, charges are two-decimal
            "175.50,  HUF, 17550", "10.25, TWD, 1025" })
    @DisplayName("major units become Stripe's minor units by Stripe's table")
    void toMinor(String amount, String currency, long minor) {
        assertThat(StripeMoney.toMinor(new BigDecimal(amount), currency)).isEqualTo(minor);
        assertThat(StripeMoney.toMinor(new BigDecimal(amount), currency.toLowerCase())).isEqualTo(minor);
    }

    @ParameterizedTest(name = "{0} {1} ← {2}")
    @CsvSource({ "1000, USD, 10.00", "500, JPY, 500", "1230, BHD, 1.230", "500, ISK, 5", "500, MGA, 500.00",
            "17550, HUF, 175.50", "500, UGX, 5", "1, EUR, 0.01" })
    @DisplayName("Stripe's minor units come back as our major units at the ISO scale")
    void toMajor(long minor, String currency, String major) {
        assertThat(StripeMoney.toMajor(minor, currency)).isEqualTo(new BigDecimal(major));
    }

    @ParameterizedTest(name = "{0} {1} refused")
    @CsvSource({
            "10.001,  USD",   // more decimals than Stripe's two
            "500.5,   JPY",   // zero-decimal
            "10.50,   MGA",   // ISO allows it, Stripe does not
            "1.235,   BHD",   // three-decimal, but not a multiple of 10
            "0.001,   KWD",
            "5.50,    ISK",   // ISK only whole
            "5.50,    UGX",   // UGX likewise
            "0.49,    USD",   // below the minimum charge
            "0.29,    GBP", "49, JPY", "14.99, CZK", "174.99, HUF", "9.99, MXN", "1.99, AED", "2.49, DKK",
            // the minimums of Stripe's current list beyond the older one's
            "0.49, ARS", "0.49, COP", "0.49, IDR", "0.49, ILS", "49, KRW", "0.49, PHP", "0.49, RUB", "0.49, ZAR",
            "1000000.00, USD", // above eight digits
            "10000000.00, INR", // above INR's nine
            "100000000.00, COP" // above COP's ten
    })
    @DisplayName("an amount Stripe cannot take exactly, or below its minimum, is refused")
    void refused(String amount, String currency) {
        assertThat(StripeMoney.refusal(new BigDecimal(amount), currency)).isPresent();
    }

    @ParameterizedTest(name = "{0} {1} accepted")
    @CsvSource({ "0.50, USD", "0.30, GBP", "50, JPY", "15.00, CZK", "175.00, HUF", "10, MXN", "2.00, AED",
            "1.230, BHD", "5, ISK", "5, UGX", "0.01, BHD", "1, XOF", "999999.99, USD",
            "0.50, ZAR", "50, KRW", "0.50, COP", "1.00, BGN", // BGN: no longer on Stripe's list (the euro replaced it)
            "0.01, TWD", // no minimum listed for it
            "9999999.99, INR", "99999999.99, COP", "9999999999.99, IDR" })
    @DisplayName("an amount Stripe takes exactly, at or above its listed minimum, is accepted")
    void accepted(String amount, String currency) {
        assertThat(StripeMoney.refusal(new BigDecimal(amount), currency)).isEmpty();
    }

    @Test
    void anInexactRefundAmountIsNeverRounded() {
        assertThatThrownBy(() -> StripeMoney.toMinor(new BigDecimal("1.235"), "BHD"))
                .isInstanceOf(StripeMoney.AmountNotSupported.class);
        assertThat(StripeMoney.toMinor(new BigDecimal("0.10"), "USD")).as("refunds have no minimum").isEqualTo(10);
    }

    @Test
    void theAdapterPinsBillingsApiVersion() {
        assertThat(StripeObjects.API_VERSION).isEqualTo(StripeApiClient.API_VERSION);
    }
}
