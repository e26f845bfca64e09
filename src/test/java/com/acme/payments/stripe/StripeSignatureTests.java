package com.acme.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

class StripeSignatureTests {

    private static final String SECRET = "whsec_unit";
    private static final long NOW = 1_760_000_000L;
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC);
    private static final Duration TOLERANCE = Duration.ofSeconds(300);
    private static final String BODY = "{\"id\":\"evt_1\",\"type\":\"invoice.paid\"}";

    @Test
    void acceptsStripesSignatureOverTheRawBytes() {
        assertThat(verify(StripeFixtures.signature(BODY, NOW, SECRET))).isTrue();
    }

    @Test
    void acceptsAnyOfSeveralV1SignaturesAndIgnoresV0() {
        String good = StripeFixtures.signature(BODY, NOW, SECRET);
        String other = StripeFixtures.signature(BODY, NOW, "whsec_old_secret");
        String header = "t=" + NOW + ",v1=" + v1(other) + ",v0=" + "ab".repeat(32) + ",v1=" + v1(good);
        assertThat(verify(header)).isTrue();
    }

    @Test
    void refusesAWrongSecretATamperedBodyAndGarbage() {
        assertThat(verify(StripeFixtures.signature(BODY, NOW, "whsec_wrong"))).isFalse();
        assertThat(StripeSignature.verify((BODY + " ").getBytes(StandardCharsets.UTF_8),
                StripeFixtures.signature(BODY, NOW, SECRET), SECRET, TOLERANCE, CLOCK)).isFalse();
        assertThat(verify(null)).isFalse();
        assertThat(verify("")).isFalse();
        assertThat(verify("t=" + NOW)).isFalse();
        assertThat(verify("v1=" + v1(StripeFixtures.signature(BODY, NOW, SECRET)))).isFalse();
        assertThat(verify("t=abc,v1=zz")).isFalse();
    }

    @Test
    void refusesTimestampsOutsideTheTolerance() {
        assertThat(verify(StripeFixtures.signature(BODY, NOW - 300, SECRET))).isTrue();
        assertThat(verify(StripeFixtures.signature(BODY, NOW - 301, SECRET))).isFalse();
        assertThat(verify(StripeFixtures.signature(BODY, NOW + 301, SECRET))).isFalse();
    }

    private static boolean verify(String header) {
        return StripeSignature.verify(BODY.getBytes(StandardCharsets.UTF_8), header, SECRET, TOLERANCE, CLOCK);
    }

    private static String v1(String header) {
        return header.substring(header.indexOf("v1=") + 3);
    }
}
