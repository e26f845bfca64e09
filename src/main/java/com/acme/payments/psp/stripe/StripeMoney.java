package com.acme.payments.psp.stripe;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.acme.payments.common.money.Amounts;

/**
 * Major ↔ minor units by Stripe's own currency table (docs.stripe.com/currencies), not by
 * {@code java.util.Currency}: the two differ (MGA has two ISO digits but is zero-decimal at Stripe; ISK
 * and UGX have none but are sent as a two-decimal value ending in 00). Our API keeps major-unit decimals; an
 * amount Stripe cannot take exactly, or below the minimum charge Stripe lists for its currency, is
 * refused before anything is sent ({@link #refusal}), never rounded.
 */
public final class StripeMoney {

    /**
     * Stripe's zero-decimal currencies: the minor amount is the major amount. Stripe's list also names UGX,
     * but its special cases for charges say to send UGX as a two-decimal value ending in 00: the more
     * specific rule wins ({@link #WHOLE_TWO_DECIMAL}), else every UGX charge would be a hundredth of the order.
     */
    static final Set<String> ZERO_DECIMAL = Set.of("BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG",
            "RWF", "VND", "VUV", "XAF", "XOF", "XPF");
    /** Stripe's three-decimal currencies: ×1000, and only multiples of 10 (the last digit must be 0). */
    static final Set<String> THREE_DECIMAL = Set.of("BHD", "JOD", "KWD", "OMR", "TND");
    /**
     * Special cases: effectively zero-decimal, but sent as a two-decimal value whose decimals are always 00
     * (5 ISK = 500, 5 UGX = 500). HUF and TWD are special only for payouts: their charges are plain two-decimal.
     */
    static final Set<String> WHOLE_TWO_DECIMAL = Set.of("ISK", "UGX");

    /**
     * Stripe's minimum charge amounts, in major units, for the currencies it lists one for (its current list:
     * ARS, COP, IDR, ILS, KRW, PHP, RUB and ZAR joined it; BGN left it when the euro replaced the lev).
     */
    static final Map<String, BigDecimal> MINIMUM_CHARGE = Map.ofEntries(
            Map.entry("USD", new BigDecimal("0.50")), Map.entry("AED", new BigDecimal("2.00")),
            Map.entry("ARS", new BigDecimal("0.50")), Map.entry("AUD", new BigDecimal("0.50")),
            Map.entry("BRL", new BigDecimal("0.50")), Map.entry("CAD", new BigDecimal("0.50")),
            Map.entry("CHF", new BigDecimal("0.50")), Map.entry("COP", new BigDecimal("0.50")),
            Map.entry("CZK", new BigDecimal("15.00")), Map.entry("DKK", new BigDecimal("2.50")),
            Map.entry("EUR", new BigDecimal("0.50")), Map.entry("GBP", new BigDecimal("0.30")),
            Map.entry("HKD", new BigDecimal("4.00")), Map.entry("HUF", new BigDecimal("175.00")),
            Map.entry("IDR", new BigDecimal("0.50")), Map.entry("ILS", new BigDecimal("0.50")),
            Map.entry("INR", new BigDecimal("0.50")), Map.entry("JPY", new BigDecimal("50")),
            Map.entry("KRW", new BigDecimal("50")), Map.entry("MXN", new BigDecimal("10")),
            Map.entry("MYR", new BigDecimal("2")), Map.entry("NOK", new BigDecimal("3.00")),
            Map.entry("NZD", new BigDecimal("0.50")), Map.entry("PHP", new BigDecimal("0.50")),
            Map.entry("PLN", new BigDecimal("2.00")), Map.entry("RON", new BigDecimal("2.00")),
            Map.entry("RUB", new BigDecimal("0.50")), Map.entry("SEK", new BigDecimal("3.00")),
            Map.entry("SGD", new BigDecimal("0.50")), Map.entry("THB", new BigDecimal("10")),
            Map.entry("ZAR", new BigDecimal("0.50")));

    /**
     * The most minor units Stripe's amount field takes whatever the payment method: eight digits, except
     * twelve for IDR, ten for COP and nine for INR (cards allow more, but a Checkout Session may be paid
     * another way).
     */
    static final long MAX_MINOR = 99_999_999L;
    static final Map<String, Long> MAX_MINOR_BY_CURRENCY = Map.of("IDR", 999_999_999_999L, "COP", 9_999_999_999L,
            "INR", 999_999_999L);

    private StripeMoney() {
    }

    /** How many minor units make one major unit at Stripe, as a power of ten: 0, 2 or 3. */
    public static int exponent(String currency) {
        String code = upper(currency);
        if (ZERO_DECIMAL.contains(code)) {
            return 0;
        }
        return THREE_DECIMAL.contains(code) ? 3 : 2;
    }

    /** Stripe's lower-case currency parameter. */
    public static String stripeCurrency(String currency) {
        return currency.toLowerCase(Locale.ROOT);
    }

    /**
     * The minor-unit amount Stripe takes for exactly {@code amount}.
     *
     * @throws AmountNotSupported when Stripe cannot take it exactly (no minimum checked: a refund has none)
     */
    public static long toMinor(BigDecimal amount, String currency) {
        String code = upper(currency);
        Optional<String> inexact = inexact(amount, code);
        if (inexact.isPresent()) {
            throw new AmountNotSupported(inexact.get());
        }
        return amount.movePointRight(exponent(code)).longValueExact();
    }

    /** A Stripe minor-unit amount in our major units, at the currency's ISO scale where it fits. */
    public static BigDecimal toMajor(long minor, String currency) {
        String code = upper(currency);
        BigDecimal major = new BigDecimal(BigInteger.valueOf(minor), exponent(code));
        BigDecimal canonical = Amounts.canonical(major.stripTrailingZeros(), code);
        return canonical.scale() < 0 ? canonical.setScale(0) : canonical;
    }

    /**
     * Why Stripe cannot charge {@code amount} in {@code currency}: not exactly representable, above its
     * digit limit, or below the minimum charge it lists for the currency. Empty when it can.
     */
    public static Optional<String> refusal(BigDecimal amount, String currency) {
        String code = upper(currency);
        Optional<String> inexact = inexact(amount, code);
        if (inexact.isPresent()) {
            return inexact;
        }
        BigDecimal minimum = MINIMUM_CHARGE.get(code);
        if (minimum != null && amount.compareTo(minimum) < 0) {
            return Optional.of(amount.toPlainString() + " " + code + " is below Stripe's minimum charge of "
                    + minimum.toPlainString() + " " + code);
        }
        return Optional.empty();
    }

    private static Optional<String> inexact(BigDecimal amount, String code) {
        if (amount == null || amount.signum() <= 0) {
            return Optional.of("Stripe takes only positive amounts");
        }
        int exponent = exponent(code);
        BigDecimal minor = amount.movePointRight(exponent);
        if (minor.stripTrailingZeros().scale() > 0) {
            return Optional.of(code + " at Stripe has " + exponent + " decimals; " + amount.toPlainString()
                    + " has more");
        }
        if (THREE_DECIMAL.contains(code) && minor.remainder(BigDecimal.TEN).signum() != 0) {
            return Optional.of(code + " at Stripe takes only multiples of 0.010; " + amount.toPlainString()
                    + " is not one");
        }
        if (WHOLE_TWO_DECIMAL.contains(code) && amount.stripTrailingZeros().scale() > 0) {
            return Optional.of(code + " at Stripe takes only whole units; " + amount.toPlainString() + " is not one");
        }
        long max = MAX_MINOR_BY_CURRENCY.getOrDefault(code, MAX_MINOR);
        if (minor.compareTo(BigDecimal.valueOf(max)) > 0) {
            return Optional.of(amount.toPlainString() + " " + code + " is above the largest amount Stripe takes");
        }
        return Optional.empty();
    }

    private static String upper(String currency) {
        if (currency == null) {
            throw new IllegalArgumentException("currency is required");
        }
        return currency.toUpperCase(Locale.ROOT);
    }

    /** Stripe cannot take the amount exactly: nothing is sent. */
    public static final class AmountNotSupported extends IllegalArgumentException {
        public AmountNotSupported(String message) {
            super(message);
        }
    }
}
