package com.acme.payments.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.DisplayName;
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

    @Test
    @DisplayName("PSP_SIGNING_KEY rolls: during the roll (new,old) both keys verify; after it the old one is refused")
    void aRollingKeyAcceptsOldAndNewUntilTheOldIsRemoved() {
        String oldKey = PspFixtures.SIGNING_KEY;
        String newKey = "rolled-signing-key";
        String byOld = PspFixtures.hmacHex(body);
        String byNew = java.util.HexFormat.of().formatHex(with(newKey).sign(raw));

        assertThat(with(oldKey).verify(raw, byOld)).as("before: the old key").isTrue();
        assertThat(with(oldKey).verify(raw, byNew)).as("before: the new key is not known yet").isFalse();

        PspSignature during = with(newKey + ", " + oldKey);
        assertThat(during.verify(raw, byOld)).as("during: a webhook the PSP still signs with the old key").isTrue();
        assertThat(during.verify(raw, byNew)).as("during: one the PSP already signs with the new key").isTrue();
        assertThat(during.verify(raw, PspFixtures.hmacBase64(body))).as("any encoding, any key").isTrue();
        assertThat(during.verify(raw, java.util.HexFormat.of().formatHex(with("third-key").sign(raw)))).isFalse();

        PspSignature after = with(newKey);
        assertThat(after.verify(raw, byNew)).as("after: the new key").isTrue();
        assertThat(after.verify(raw, byOld)).as("after: the old key is refused").isFalse();
    }

    @Test
    void signingKeysAreSplitAtCommasTrimmedAndBlanksDropped() {
        assertThat(properties(" a , b,,c ,").signingKeys()).containsExactly("a", "b", "c");
        assertThat(properties("single").signingKeys()).containsExactly("single");
    }

    private static PspProperties properties(String signingKey) {
        return new PspProperties(PspProperties.Provider.GATEWAY, "http://psp", "k", signingKey, Duration.ofSeconds(1), Duration.ofSeconds(1), null, null);
    }

    private static PspSignature with(String signingKey) {
        return new PspSignature(properties(signingKey));
    }
}
