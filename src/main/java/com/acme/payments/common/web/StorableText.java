package com.acme.payments.common.web;

/**
 * Text PostgreSQL can store: no NUL character (a {@code text} or {@code jsonb} value cannot hold one, so
 * the insert fails) and no unpaired UTF-16 surrogate (the driver would silently write '?' instead).
 */
public final class StorableText {

    private StorableText() {
    }

    public static boolean isStorable(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
