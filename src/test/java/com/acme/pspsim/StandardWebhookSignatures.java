package com.acme.pspsim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a Standard Webhooks delivery the way a shop's library does (standardwebhooks.com): {@code webhook-id},
 * {@code webhook-timestamp} (unix seconds, within a tolerance) and {@code webhook-signature}, a space-separated
 * list of {@code v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">} keyed with the base64-decoded part of a
 * {@code whsec_…} secret. Any signature matching any configured secret (comma-separated while rolling) verifies.
 * Written from the specification, not from the service's code.
 */
final class StandardWebhookSignatures {

    static final String ID = "webhook-id";
    static final String TIMESTAMP = "webhook-timestamp";
    static final String SIGNATURE = "webhook-signature";

    private StandardWebhookSignatures() {
    }

    /** Null when valid, else why not (short, safe to log). */
    static String problem(String id, String timestamp, String signature, byte[] body, String secrets, Instant now,
            Duration tolerance) {
        if (id == null || id.isBlank() || timestamp == null || signature == null || signature.isBlank()) {
            return "a webhook-id, webhook-timestamp or webhook-signature header is missing";
        }
        long t;
        try {
            t = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return "malformed webhook-timestamp";
        }
        if (Math.abs(now.getEpochSecond() - t) > tolerance.toSeconds()) {
            return "timestamp outside the tolerance";
        }
        List<byte[]> candidates = new ArrayList<>();
        for (String entry : signature.split(" ")) {
            if (entry.startsWith("v1,")) {
                candidates.add(entry.substring(3).getBytes(StandardCharsets.US_ASCII));
            }
        }
        if (candidates.isEmpty()) {
            return "no v1 signature";
        }
        byte[] prefix = (id + "." + t + ".").getBytes(StandardCharsets.UTF_8);
        byte[] signed = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, signed, 0, prefix.length);
        System.arraycopy(body, 0, signed, prefix.length, body.length);
        boolean match = false;
        for (String secret : secrets.split(",")) {
            String trimmed = secret.trim();
            if (!trimmed.startsWith("whsec_")) {
                continue;
            }
            byte[] expected = Base64.getEncoder().encode(hmac(Base64.getDecoder().decode(trimmed.substring(6)), signed));
            for (byte[] candidate : candidates) { // every pair, no early exit
                match |= MessageDigest.isEqual(expected, candidate);
            }
        }
        return match ? null : "signature mismatch";
    }

    private static byte[] hmac(byte[] key, byte[] content) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(content);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
