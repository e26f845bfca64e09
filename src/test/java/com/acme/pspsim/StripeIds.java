package com.acme.pspsim;

import java.security.SecureRandom;

/** Ids in Stripe's style: a prefix and random base62 ({@code cs_test_a1B2…}, {@code pi_3Q…}, {@code evt_1…}). */
final class StripeIds {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
            .toCharArray();

    private StripeIds() {
    }

    static String next(String prefix) {
        return next(prefix, 24);
    }

    static String next(String prefix, int length) {
        StringBuilder b = new StringBuilder(prefix);
        for (int i = 0; i < length; i++) {
            b.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
        }
        return b.toString();
    }
}
