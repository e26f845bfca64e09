package com.acme.pspsim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

/** The simulator's Standard Webhooks check against the specification's own example. */
class StandardWebhookSignaturesTests {

    // the example of the Standard Webhooks specification (standardwebhooks.com)
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final String TIMESTAMP = "1614265330";
    private static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    private static final Instant NOW = Instant.ofEpochSecond(1614265330 + 30);
    private static final Duration TOLERANCE = Duration.ofMinutes(5);

    @Test
    void theSpecificationsExampleVerifies() {
        assertThat(StandardWebhookSignatures.problem(ID, TIMESTAMP, SIGNATURE, BODY, SECRET, NOW, TOLERANCE)).isNull();
    }

    @Test
    void anyOfSeveralSignaturesAgainstAnyOfSeveralSecretsVerifies() {
        String other = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[24]);
        assertThat(StandardWebhookSignatures.problem(ID, TIMESTAMP, "v1,bm90IGl0 " + SIGNATURE, BODY,
                other + "," + SECRET, NOW, TOLERANCE)).isNull();
        assertThat(StandardWebhookSignatures.problem(ID, TIMESTAMP, SIGNATURE, BODY, other, NOW, TOLERANCE))
                .isEqualTo("signature mismatch");
    }

    @Test
    void aChangedBodyIdOrTimestampDoesNotVerify() {
        assertThat(StandardWebhookSignatures.problem(ID, TIMESTAMP, SIGNATURE,
                "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8), SECRET, NOW, TOLERANCE))
                .isEqualTo("signature mismatch");
        assertThat(StandardWebhookSignatures.problem(ID + "x", TIMESTAMP, SIGNATURE, BODY, SECRET, NOW, TOLERANCE))
                .isEqualTo("signature mismatch");
        assertThat(StandardWebhookSignatures.problem(ID, "1614265331", SIGNATURE, BODY, SECRET, NOW, TOLERANCE))
                .isEqualTo("signature mismatch");
    }

    @Test
    void anOldTimestampOrAMissingHeaderIsRefused() {
        assertThat(StandardWebhookSignatures.problem(ID, TIMESTAMP, SIGNATURE, BODY, SECRET,
                NOW.plus(Duration.ofMinutes(6)), TOLERANCE)).isEqualTo("timestamp outside the tolerance");
        assertThat(StandardWebhookSignatures.problem(ID, TIMESTAMP, null, BODY, SECRET, NOW, TOLERANCE)).isNotNull();
        assertThat(StandardWebhookSignatures.problem(ID, TIMESTAMP, "v2,abc", BODY, SECRET, NOW, TOLERANCE))
                .isEqualTo("no v1 signature");
    }
}
