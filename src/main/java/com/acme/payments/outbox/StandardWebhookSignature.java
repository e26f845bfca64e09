package com.acme.payments.outbox;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code webhook-signature} of one shop event, the Standard Webhooks scheme
 * (https://www.standardwebhooks.com): {@code v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">}
 * keyed with the base64-decoded bytes after {@code whsec_}. While the secret rolls the setting holds several,
 * comma-separated; the header then carries one signature per secret, space-separated, in the order given, so a
 * shop verifies with either (any Standard Webhooks library accepts a match of any one).
 */
final class StandardWebhookSignature {

    static final String ID = "webhook-id";
    static final String TIMESTAMP = "webhook-timestamp";
    static final String SIGNATURE = "webhook-signature";
    private static final String PREFIX = "whsec_";

    private StandardWebhookSignature() {
    }

    /** True when the setting is blank or every comma-separated secret is {@code whsec_} + non-empty base64. */
    static boolean validKeys(String configured) {
        try {
            keys(configured);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The HMAC keys of a {@code "whsec_…,whsec_…"} setting, in order; empty when blank. */
    static List<byte[]> keys(String configured) {
        return SinkRoutes.secrets(configured).stream().map(StandardWebhookSignature::key).toList();
    }

    private static byte[] key(String secret) {
        if (!secret.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a whsec_ secret");
        }
        byte[] key = Base64.getDecoder().decode(secret.substring(PREFIX.length())); // IllegalArgumentException
        if (key.length == 0) {
            throw new IllegalArgumentException("empty whsec_ secret");
        }
        return key;
    }

    static String header(List<byte[]> keys, String id, long unixSeconds, String body) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no secret: an unsigned event carries no signature");
        }
        byte[] signed = (id + "." + unixSeconds + "." + body).getBytes(StandardCharsets.UTF_8);
        StringBuilder header = new StringBuilder();
        for (byte[] key : keys) {
            header.append(header.isEmpty() ? "" : " ").append("v1,")
                    .append(Base64.getEncoder().encodeToString(hmac(key, signed)));
        }
        return header.toString();
    }

    private static byte[] hmac(byte[] key, byte[] signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(signed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
