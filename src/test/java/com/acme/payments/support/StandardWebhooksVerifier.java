package com.acme.payments.support;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a shop runs to verify one event, written from the Standard Webhooks specification
 * (https://www.standardwebhooks.com) and independent of the service's code, so the tests prove deliveries
 * against the scheme, not against themselves: the signed content is {@code "<webhook-id>.<webhook-timestamp>.<body>"},
 * the key is the base64 decoding of the secret after {@code whsec_}, the signature is base64 HMAC-SHA256
 * with the {@code v1,} version prefix, the header a space-separated list of them (any one matching verifies),
 * and the timestamp must be within the tolerance of now (replay protection).
 */
public final class StandardWebhooksVerifier {

    private static final long TOLERANCE_SECONDS = 5 * 60;

    private final byte[] key;

    /** One secret, {@code whsec_<base64>}. */
    public StandardWebhooksVerifier(String secret) {
        if (!secret.startsWith("whsec_")) {
            throw new IllegalArgumentException("not a Standard Webhooks secret");
        }
        this.key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
    }

    /** True when the headers sign {@code rawBody} with this secret and the timestamp is within five minutes of now. */
    public boolean verify(String webhookId, String webhookTimestamp, String webhookSignature, byte[] rawBody,
            long nowSeconds) throws Exception {
        if (webhookId == null || webhookTimestamp == null || webhookSignature == null
                || !webhookTimestamp.matches("[0-9]{1,12}")) {
            return false;
        }
        long timestamp = Long.parseLong(webhookTimestamp);
        if (Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) {
            return false;
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        mac.update((webhookId + "." + webhookTimestamp + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = Base64.getEncoder().encode(mac.doFinal(rawBody));
        boolean valid = false;
        for (String versioned : webhookSignature.split(" ")) {
            int comma = versioned.indexOf(',');
            if (comma > 0 && versioned.substring(0, comma).equals("v1")) {
                valid |= MessageDigest.isEqual(expected, versioned.substring(comma + 1).getBytes(StandardCharsets.US_ASCII));
            }
        }
        return valid;
    }
}
