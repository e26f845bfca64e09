package com.acme.payments.outbox;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Payments-Signature} of one delivery, the scheme Stripe signs its webhooks with:
 * {@code t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">} with the sink's secret.
 * The timestamp is inside the signed text, so a captured delivery cannot be replayed later with a new
 * one; the sink checks it against a tolerance. A sink secret may hold several secrets (comma-separated)
 * while it rolls: the header then carries one {@code v1=} per secret, in the order given
 * ({@code t=…,v1=<new>,v1=<old>}), Stripe's own rolling scheme, so the shop verifies with either.
 */
final class SinkSignature {

    static final String HEADER = "Payments-Signature";

    private SinkSignature() {
    }

    static String header(List<String> secrets, long unixSeconds, String body) {
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("no secret: an unsigned delivery carries no header");
        }
        StringBuilder header = new StringBuilder("t=").append(unixSeconds);
        for (String secret : secrets) {
            header.append(",v1=").append(HexFormat.of().formatHex(hmac(secret, unixSeconds + "." + body)));
        }
        return header.toString();
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
