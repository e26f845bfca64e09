package com.acme.payments.common.web;

import java.util.regex.Pattern;

/**
 * What our API's requests may carry beyond their JSON shape: the one place for these text rules, used by the
 * body reader ({@link RequestBodyConverter}), the {@link PlainText} constraint and the key headers. Money's
 * own rules (currency, scale) stay in {@code Amounts}.
 */
public final class RequestRules {

    /** An amount sent as a string: digits, optionally a point and digits; no sign, exponent, space or separator. */
    private static final Pattern PLAIN_DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");

    private RequestRules() {
    }

    public static boolean isPlainDecimal(String text) {
        return text != null && PLAIN_DECIMAL.matcher(text).matches();
    }

    /**
     * Text for an identifier, a reference or a reason: no control character (C0, DEL, C1: CR, LF, NUL, ESC, …)
     * and no bidirectional override or isolate (U+202A–U+202E, U+2066–U+2069), which would forge a log line
     * or show an operator another text than the one stored. Null is plain (presence is another rule).
     */
    public static boolean isPlainText(CharSequence text) {
        if (text == null) {
            return true;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || c >= '\u202A' && c <= '\u202E' || c >= '\u2066' && c <= '\u2069') {
                return false;
            }
        }
        return StorableText.isStorable(text);
    }

    /** A key header ({@code Idempotency-Key}): 1 to {@code max} printable ASCII characters. */
    public static boolean isKey(String key, int max) {
        return key != null && !key.isBlank() && key.length() <= max && key.chars().allMatch(c -> c >= 0x20 && c <= 0x7e);
    }
}
