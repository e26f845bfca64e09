package com.acme.payments.psp;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.stereotype.Component;

/**
 * Verifies the PSP's {@code Signature} header: HMAC-SHA256 of the raw request bytes. The encoding is
 * undocumented, so lowercase (or uppercase) hex and base64 are both accepted; the decoded value must be
 * exactly 32 bytes and is compared in constant time.
 */
@Component
public class PspSignature {

    private static final int MAC_LENGTH = 32;

    private final SecretKeySpec key;

    PspSignature(PspProperties properties) {
        // no signing key (Stripe is the provider): every /webhooks/psp delivery fails closed
        this.key = properties.signingKey() == null || properties.signingKey().isBlank() ? null
                : new SecretKeySpec(properties.signingKey().getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public boolean verify(byte[] rawBody, String header) {
        if (key == null || rawBody == null || header == null) {
            return false;
        }
        byte[] presented = decode(header.trim());
        if (presented == null || presented.length != MAC_LENGTH) {
            return false;
        }
        return MessageDigest.isEqual(sign(rawBody), presented);
    }

    /** HMAC-SHA256 of the bytes (for tests and the simulator's counterpart). */
    public byte[] sign(byte[] rawBody) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(rawBody);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] decode(String value) {
        if (value.length() == MAC_LENGTH * 2 && value.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return HexFormat.of().parseHex(value.toLowerCase(java.util.Locale.ROOT));
        }
        try {
            return Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException notBase64) {
            try {
                return Base64.getUrlDecoder().decode(value);
            } catch (IllegalArgumentException neither) {
                return null;
            }
        }
    }
}
