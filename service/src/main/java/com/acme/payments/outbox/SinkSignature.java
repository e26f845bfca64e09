package com.acme.payments.outbox;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Payments-Signature} of one delivery, the scheme Stripe signs its webhooks with:
 * {@code t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">} with the sink's secret.
 * The timestamp is inside the signed text, so a captured delivery cannot be replayed later with a new
 * one; the sink checks it against a tolerance.
 */
final class SinkSignature {

    static final String HEADER = "Payments-Signature";

    private SinkSignature() {
    }

    static String header(String secret, long unixSeconds, String body) {
        return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(hmac(secret, unixSeconds + "." + body));
    }

    private static byte[] hmac(String secret, String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(signed.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
