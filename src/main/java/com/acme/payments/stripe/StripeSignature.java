package com.acme.payments.stripe;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies {@code Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]} over the raw request bytes:
 * HMAC-SHA256 of {@code "<t>." + body} with the endpoint secret. Every {@code v1} is accepted (Stripe
 * sends several while a secret is rolled), compared in constant time; the timestamp must lie within
 * the tolerance of our clock, so a captured delivery cannot be replayed later. Done by hand rather
 * than with stripe-java's {@code Webhook}, which wants the body as a decoded String: the bytes Stripe
 * signed are exactly the bytes we check.
 */
final class StripeSignature {

    private static final int MAX_HEADER = 4096;

    private StripeSignature() {
    }

    static boolean verify(byte[] body, String header, String secret, Duration tolerance, Clock clock) {
        if (body == null || header == null || header.isEmpty() || header.length() > MAX_HEADER || secret == null) {
            return false;
        }
        Long timestamp = null;
        List<byte[]> candidates = new ArrayList<>();
        for (String part : header.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = part.substring(0, eq).trim();
            String value = part.substring(eq + 1).trim();
            if (key.equals("t")) {
                timestamp = parseLong(value);
            } else if (key.equals("v1")) {
                byte[] decoded = parseHex(value);
                if (decoded != null) {
                    candidates.add(decoded);
                }
            }
        }
        if (timestamp == null || candidates.isEmpty()) {
            return false;
        }
        long now = clock.instant().getEpochSecond();
        if (Math.abs(now - timestamp) > tolerance.toSeconds()) {
            return false;
        }
        byte[] expected = sign(secret, timestamp, body);
        boolean match = false;
        for (byte[] candidate : candidates) {
            match |= MessageDigest.isEqual(expected, candidate); // no early exit: timing says nothing
        }
        return match;
    }

    /** HMAC-SHA256 of {@code "<timestamp>." + body}; also what tests and the docs' openssl line compute. */
    static byte[] sign(String secret, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    private static Long parseLong(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static byte[] parseHex(String value) {
        if (value.length() != 64) {
            return null;
        }
        try {
            return HexFormat.of().parseHex(value.toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
