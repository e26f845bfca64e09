package com.acme.pspsim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The sink's check of {@code Payments-Signature} while the service's sink secret rolls. */
class SinkSignaturesTests {

    private static final byte[] BODY = "{\"orderRef\":\"o-1\"}".getBytes(StandardCharsets.UTF_8);
    private static final long T = 1_700_000_000L;
    private static final Instant NOW = Instant.ofEpochSecond(T + 10);
    private static final Duration TOLERANCE = Duration.ofMinutes(5);

    @Test
    @DisplayName("a delivery signed mid-roll (v1=<new>,v1=<old>) verifies at a sink holding either secret")
    void aRollingDeliveryVerifiesWithEitherSecret() {
        String header = "t=" + T + ",v1=" + v1("new-secret") + ",v1=" + v1("old-secret");
        assertThat(SinkSignatures.problem(header, BODY, "old-secret", NOW, TOLERANCE)).isNull();
        assertThat(SinkSignatures.problem(header, BODY, "new-secret", NOW, TOLERANCE)).isNull();
        assertThat(SinkSignatures.problem(header, BODY, "other-secret", NOW, TOLERANCE)).isEqualTo("signature mismatch");
    }

    @Test
    @DisplayName("a sink holding several secrets (new,old) accepts a delivery signed with any one of them")
    void aSinkHoldingSeveralSecretsAcceptsAny() {
        assertThat(SinkSignatures.problem("t=" + T + ",v1=" + v1("old-secret"), BODY, "new-secret, old-secret", NOW,
                TOLERANCE)).isNull();
        assertThat(SinkSignatures.problem("t=" + T + ",v1=" + v1("new-secret"), BODY, "new-secret,old-secret", NOW,
                TOLERANCE)).isNull();
        assertThat(SinkSignatures.problem("t=" + T + ",v1=" + v1("gone-secret"), BODY, "new-secret,old-secret", NOW,
                TOLERANCE)).isEqualTo("signature mismatch");
    }

    private static String v1(String secret) {
        byte[] prefix = (T + ".").getBytes(StandardCharsets.UTF_8);
        byte[] signed = new byte[prefix.length + BODY.length];
        System.arraycopy(prefix, 0, signed, 0, prefix.length);
        System.arraycopy(BODY, 0, signed, prefix.length, BODY.length);
        return HexFormat.of().formatHex(Signatures.hmac(signed, secret));
    }
}
