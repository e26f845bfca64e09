package com.acme.payments.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.PspFixtures;

class PspSignatureTests {

    final PspSignature signature = new PspSignature(new PspProperties(PspProperties.Provider.GATEWAY, "http://psp", "k", PspFixtures.SIGNING_KEY,
            Duration.ofSeconds(1), Duration.ofSeconds(1), null, null));
    final String body = "{\"id\":\"p1\",\"state\":\"COMPLETED\"}";
    final byte[] raw = body.getBytes(StandardCharsets.UTF_8);

    @Test
    void acceptsLowercaseAndUppercaseHexAndBase64() {
        assertThat(signature.verify(raw, PspFixtures.hmacHex(body))).isTrue();
        assertThat(signature.verify(raw, PspFixtures.hmacHex(body).toUpperCase())).isTrue();
        assertThat(signature.verify(raw, PspFixtures.hmacBase64(body))).isTrue();
        assertThat(signature.verify(raw, " " + PspFixtures.hmacHex(body) + " ")).isTrue();
    }

    @Test
    void refusesOtherBytesTruncatedOrPaddedSignaturesAndGarbage() {
        String hex = PspFixtures.hmacHex(body);
        assertThat(signature.verify((body + " ").getBytes(StandardCharsets.UTF_8), hex)).isFalse();
        assertThat(signature.verify(raw, hex.substring(0, 62))).isFalse();
        assertThat(signature.verify(raw, hex + "00")).isFalse();
        assertThat(signature.verify(raw, "")).isFalse();
        assertThat(signature.verify(raw, null)).isFalse();
        assertThat(signature.verify(null, hex)).isFalse();
        assertThat(signature.verify(raw, "sha256=" + hex)).isFalse();
        assertThat(signature.verify(raw, "!!!not base64!!!")).isFalse();
    }
}
