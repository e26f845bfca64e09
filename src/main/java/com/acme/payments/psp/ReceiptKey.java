package com.acme.payments.psp;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The inbox key of a receipt's payment id or state: the value itself, or for an overlong one (a payload
 * fault) a stable bounded stand-in, its start and digest, so every signed receipt can be stored.
 */
public final class ReceiptKey {

    static final int MAX_KEY = 255;

    private ReceiptKey() {
    }

    public static String of(String value) {
        if (value.length() <= MAX_KEY) {
            return value;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return value.substring(0, value.offsetByCodePoints(0, 64)) + "…sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }
}
