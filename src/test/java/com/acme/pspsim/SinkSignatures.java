package com.acme.pspsim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

/**
 * Checks the service's {@code Payments-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">}
 * the way a shop would: the timestamp within a tolerance, any {@code v1} equal to the expected one,
 * compared in constant time. While the service's secret rolls its header carries one {@code v1} per secret
 * ({@code t=…,v1=<new>,v1=<old>}), so a sink configured with either verifies it; the sink's own setting may
 * hold several secrets too (comma-separated, a shop mid-switch), any of them verifying.
 */
final class SinkSignatures {

    static final String HEADER = "Payments-Signature";

    private SinkSignatures() {
    }

    /** Null when valid, else why not (short, safe to log). */
    static String problem(String header, byte[] body, String secrets, Instant now, Duration tolerance) {
        if (header == null || header.isBlank()) {
            return "no " + HEADER;
        }
        Long t = null;
        java.util.List<String> candidates = new java.util.ArrayList<>();
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length == 2 && kv[0].equals("t")) {
                try {
                    t = Long.parseLong(kv[1]);
                } catch (NumberFormatException e) {
                    return "malformed t";
                }
            } else if (kv.length == 2 && kv[0].equals("v1")) {
                candidates.add(kv[1]);
            }
        }
        if (t == null || candidates.isEmpty()) {
            return "t or v1 missing";
        }
        if (Math.abs(now.getEpochSecond() - t) > tolerance.toSeconds()) {
            return "timestamp outside the tolerance";
        }
        byte[] prefix = (t + ".").getBytes(StandardCharsets.UTF_8);
        byte[] signed = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, signed, 0, prefix.length);
        System.arraycopy(body, 0, signed, prefix.length, body.length);
        boolean match = false;
        for (String secret : secrets.split(",")) {
            if (secret.isBlank()) {
                continue;
            }
            byte[] expected = HexFormat.of().formatHex(Signatures.hmac(signed, secret.trim()))
                    .getBytes(StandardCharsets.US_ASCII);
            for (String candidate : candidates) { // every pair, no early exit
                match |= MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII));
            }
        }
        return match ? null : "signature mismatch";
    }
}
