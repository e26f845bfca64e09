package com.acme.payments.common.money;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Pattern;

import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.Problems.FieldProblem;

/**
 * Money rules at the edge: an amount is a positive {@link BigDecimal} with no more fraction digits
 * than its ISO-4217 currency has (JPY 0, EUR 2, BHD 3), and below a sane ceiling.
 */
public final class Amounts {

    /** No order or refund in this service is larger; anything bigger is a typo or an attack. */
    public static final BigDecimal MAX = new BigDecimal("1000000000000");
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

    private Amounts() {
    }

    /**
     * Validates an amount and its currency and returns them canonical (currency upper case, amount
     * at the currency's scale), or throws a 400 problem listing the offending fields.
     */
    public static Checked check(BigDecimal amount, String currency) {
        List<FieldProblem> errors = new ArrayList<>();
        Currency known = isCurrencyCode(currency) ? currency(currency) : null;
        if (known == null) {
            errors.add(new FieldProblem("currency", "must be an ISO-4217 currency code in upper case (EUR)"));
        }
        if (amount == null) {
            errors.add(new FieldProblem("amount", "is required"));
        } else if (amount.signum() <= 0) {
            errors.add(new FieldProblem("amount", "must be greater than zero"));
        } else if (amount.compareTo(MAX) >= 0) {
            errors.add(new FieldProblem("amount", "is too large"));
        } else if (known != null && amount.stripTrailingZeros().scale() > known.getDefaultFractionDigits()) {
            errors.add(new FieldProblem("amount",
                    "has more fraction digits than " + known.getCurrencyCode() + " allows ("
                            + known.getDefaultFractionDigits() + ")"));
        }
        if (!errors.isEmpty()) {
            throw new Problems.ValidationFailed(errors);
        }
        return new Checked(amount.setScale(known.getDefaultFractionDigits()), known.getCurrencyCode());
    }

    /** The amount at its currency's scale, for values the PSP hands us (which we never refuse). */
    public static BigDecimal canonical(BigDecimal amount, String currency) {
        Currency known = currency(currency);
        if (amount == null || known == null || amount.stripTrailingZeros().scale() > known.getDefaultFractionDigits()) {
            return amount;
        }
        return amount.setScale(known.getDefaultFractionDigits());
    }

    /**
     * The fraction digits of an ISO-4217 currency (JPY 0, EUR 2, BHD 3), or empty when {@code code} is not
     * one (a three-letter code with digits, not a fund or metal code). Shared with the PSP payload rules.
     */
    public static OptionalInt fractionDigits(String code) {
        Currency known = currency(code);
        return known == null ? OptionalInt.empty() : OptionalInt.of(known.getDefaultFractionDigits());
    }

    /**
     * A currency as our API and the PSP write it: three upper-case letters naming an ISO-4217 currency with
     * minor units ("EUR"; not "eur", "XXX" or "XAU"). Stripe's lower-case codes are canonicalised before.
     */
    public static boolean isCurrencyCode(String code) {
        return code != null && CURRENCY.matcher(code).matches() && fractionDigits(code).isPresent();
    }

    private static Currency currency(String code) {
        if (code == null || !code.matches("[A-Za-z]{3}")) {
            return null;
        }
        try {
            Currency currency = Currency.getInstance(code.toUpperCase(Locale.ROOT));
            return currency.getDefaultFractionDigits() < 0 ? null : currency;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public record Checked(BigDecimal amount, String currency) {
    }
}
