package com.acme.pspsim;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The webhook {@code Signature}: HMAC-SHA256 over the raw body bytes, lowercase hex or base64. */
final class Signatures {

    private Signatures() {
    }

    static String sign(byte[] body, String key, SimulatorProperties.SignatureEncoding encoding) {
        byte[] mac = hmac(body, key);
        return encoding == SimulatorProperties.SignatureEncoding.BASE64 ? Base64.getEncoder().encodeToString(mac)
                : HexFormat.of().formatHex(mac);
    }

    static byte[] hmac(byte[] body, String key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
