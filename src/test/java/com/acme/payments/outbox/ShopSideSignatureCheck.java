package com.acme.payments.outbox;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a shop runs to check a delivery's {@code Payments-Signature}: the code docs/outbox.md shows,
 * kept here so the tests prove it against real deliveries.
 */
final class ShopSideSignatureCheck {

    private ShopSideSignatureCheck() {
    }

    /** True when {@code header} signs {@code rawBody} with {@code secret} and its t is within the tolerance. */
    static boolean verify(String header, byte[] rawBody, String secret, long nowSeconds, long toleranceSeconds)
            throws Exception {
        if (header == null) {
            return false;
        }
        long t = -1;
        java.util.List<String> v1 = new java.util.ArrayList<>();
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length == 2 && kv[0].equals("t") && kv[1].matches("\\d{1,12}")) {
                t = Long.parseLong(kv[1]);
            } else if (kv.length == 2 && kv[0].equals("v1")) {
                v1.add(kv[1]);
            }
        }
        if (t < 0 || Math.abs(nowSeconds - t) > toleranceSeconds) {
            return false; // unsigned, malformed, or too old: a replay
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = HexFormat.of().formatHex(mac.doFinal(rawBody)).getBytes(StandardCharsets.US_ASCII);
        boolean valid = false;
        for (String candidate : v1) { // constant time; any v1 may match (secret rotation)
            valid |= MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII));
        }
        return valid;
    }
}
