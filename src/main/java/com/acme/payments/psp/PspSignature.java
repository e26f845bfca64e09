package com.acme.payments.psp;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.stereotype.Component;

/**
 * Verifies the PSP's {@code Signature} header: HMAC-SHA256 of the raw request bytes. The encoding is
 * undocumented, so lowercase (or uppercase) hex and base64 are both accepted; the decoded value must be
 * exactly 32 bytes and is compared in constant time. {@code PSP_SIGNING_KEY} may hold several keys,
 * comma-separated, so the PSP's key rolls without a 401: a body signed with any of them is accepted, and
 * every key is compared, never stopping at the first match (docs/runbook.md, "Rotating a secret").
 */
@Component
public class PspSignature {

    private static final int MAC_LENGTH = 32;

    /**
     * One initialised Mac per key, cloned for each signature: a clone is a copy of its state, where
     * {@code Mac.getInstance} + {@code init} per delivery looked the provider up and hashed the key again.
     */
    private final List<Mac> keys;

    PspSignature(PspProperties properties) {
        // no signing key (Stripe is the provider): every /webhooks/psp delivery fails closed
        this.keys = properties.signingKeys().stream()
                .map(key -> initialised(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256")))
                .toList();
    }

    private static Mac initialised(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean verify(byte[] rawBody, String header) {
        if (keys.isEmpty() || rawBody == null || header == null) {
            return false;
        }
        byte[] presented = decode(header.trim());
        if (presented == null || presented.length != MAC_LENGTH) {
            return false;
        }
        boolean valid = false;
        for (Mac key : keys) { // every key, no early exit: timing says nothing about which matched
            valid |= MessageDigest.isEqual(sign(key, rawBody), presented);
        }
        return valid;
    }

    /** HMAC-SHA256 of the bytes with the first (the newest) key (for tests and the simulator's counterpart). */
    public byte[] sign(byte[] rawBody) {
        return sign(keys.get(0), rawBody);
    }

    private static byte[] sign(Mac key, byte[] rawBody) {
        try {
            return ((Mac) key.clone()).doFinal(rawBody);
        } catch (CloneNotSupportedException e) {
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
