package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.StandardWebhooksVerifier;

/**
 * The signer against the Standard Webhooks specification's published test vector, and the tests' own
 * verifier against the same vector (so the integration tests' check is the specification's, not ours).
 */
class StandardWebhookSignatureTests {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long TIMESTAMP = 1614265330;
    private static final String BODY = "{\"test\": 2432232314}";
    private static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    @DisplayName("the signer reproduces the specification's test vector")
    void signsAsTheSpecificationsVector() {
        assertThat(StandardWebhookSignature.header(StandardWebhookSignature.keys(SECRET), ID, TIMESTAMP, BODY))
                .isEqualTo(SIGNATURE);
    }

    @Test
    @DisplayName("the tests' verifier accepts the vector, refuses it altered or stale")
    void theVerifierAcceptsTheVector() throws Exception {
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        StandardWebhooksVerifier verifier = new StandardWebhooksVerifier(SECRET);
        assertThat(verifier.verify(ID, Long.toString(TIMESTAMP), SIGNATURE, body, TIMESTAMP + 10)).isTrue();
        assertThat(verifier.verify(ID, Long.toString(TIMESTAMP), "v1,bogus " + SIGNATURE, body, TIMESTAMP)).isTrue();
        assertThat(verifier.verify("msg_other", Long.toString(TIMESTAMP), SIGNATURE, body, TIMESTAMP)).isFalse();
        assertThat(verifier.verify(ID, Long.toString(TIMESTAMP), SIGNATURE, "{\"test\": 2432232315}"
                .getBytes(StandardCharsets.UTF_8), TIMESTAMP)).isFalse();
        assertThat(verifier.verify(ID, Long.toString(TIMESTAMP), SIGNATURE, body, TIMESTAMP + 301)).isFalse();
    }

    @Test
    @DisplayName("two rolling secrets: one v1 signature each, space-separated, in the order configured")
    void rollingSecretsSignOnceEach() {
        String header = StandardWebhookSignature.header(StandardWebhookSignature.keys(SECRET + ", whsec_c2Vjb25k"),
                ID, TIMESTAMP, BODY);
        assertThat(header.split(" ")).hasSize(2).startsWith(SIGNATURE);
        assertThat(header.split(" ")[1]).startsWith("v1,").isNotEqualTo(SIGNATURE);
    }

    @Test
    void onlyWhsecBase64SecretsAreValid() {
        assertThat(StandardWebhookSignature.validKeys(null)).isTrue();
        assertThat(StandardWebhookSignature.validKeys(" ")).isTrue();
        assertThat(StandardWebhookSignature.validKeys(SECRET + "," + SECRET)).isTrue();
        for (String bad : List.of("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_", "whsec_not base64!", SECRET + ",x")) {
            assertThat(StandardWebhookSignature.validKeys(bad)).as(bad).isFalse();
        }
    }
}
