package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SinkSignatureTests {

    private static final String BODY = "{\"orderRef\":\"o-1\",\"amount\":\"10.01\"}";

    @Test
    @DisplayName("Payments-Signature is t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">")
    void signsTimestampDotBodyWithTheSecret() {
        // expected value computed independently: python3 hmac.new(b"whsec_test", b"1700000000." + body, sha256)
        assertThat(SinkSignature.header(List.of("whsec_test"), 1_700_000_000L, BODY))
                .isEqualTo("t=1700000000,v1=7d8ac4127abcd6325cf8c9793759e0fd937f894d2ef68a8617528320ea7c5978");
    }

    @Test
    @DisplayName("the shop-side check of docs/outbox.md accepts it, and refuses a changed body, secret, or an old t")
    void theDocumentedCheckAcceptsOnlyTheGenuineFreshDelivery() throws Exception {
        String header = SinkSignature.header(List.of("whsec_test"), 1_700_000_000L, BODY);
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        assertThat(ShopSideSignatureCheck.verify(header, body, "whsec_test", 1_700_000_100L, 300)).isTrue();
        assertThat(ShopSideSignatureCheck.verify(header, BODY.replace("10.01", "10.02").getBytes(StandardCharsets.UTF_8),
                "whsec_test", 1_700_000_100L, 300)).isFalse();
        assertThat(ShopSideSignatureCheck.verify(header, body, "whsec_other", 1_700_000_100L, 300)).isFalse();
        assertThat(ShopSideSignatureCheck.verify(header, body, "whsec_test", 1_700_000_301L, 300)).isFalse();
        assertThat(ShopSideSignatureCheck.verify(null, body, "whsec_test", 1_700_000_000L, 300)).isFalse();
        assertThat(ShopSideSignatureCheck.verify("t=1700000000", body, "whsec_test", 1_700_000_000L, 300)).isFalse();
    }

    @Test
    @DisplayName("a rolling secret (new,old) signs with one v1 per secret, in that order: the shop verifies with either")
    void aRollingSecretCarriesOneV1PerSecretInTheOrderGiven() throws Exception {
        String header = SinkSignature.header(List.of("whsec_new", "whsec_test"), 1_700_000_000L, BODY);
        String byNew = SinkSignature.header(List.of("whsec_new"), 1_700_000_000L, BODY).substring("t=1700000000,".length());
        // the old secret's v1 is the independently computed value of the first test
        assertThat(header).isEqualTo("t=1700000000," + byNew
                + ",v1=7d8ac4127abcd6325cf8c9793759e0fd937f894d2ef68a8617528320ea7c5978");
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        assertThat(ShopSideSignatureCheck.verify(header, body, "whsec_test", 1_700_000_100L, 300))
                .as("a shop still on the old secret").isTrue();
        assertThat(ShopSideSignatureCheck.verify(header, body, "whsec_new", 1_700_000_100L, 300))
                .as("a shop already on the new secret").isTrue();
        assertThat(ShopSideSignatureCheck.verify(header, body, "whsec_other", 1_700_000_100L, 300)).isFalse();

        String after = SinkSignature.header(List.of("whsec_new"), 1_700_000_000L, BODY);
        assertThat(ShopSideSignatureCheck.verify(after, body, "whsec_new", 1_700_000_100L, 300)).isTrue();
        assertThat(ShopSideSignatureCheck.verify(after, body, "whsec_test", 1_700_000_100L, 300))
                .as("after the roll the old secret no longer verifies").isFalse();
    }

    @Test
    void sinkSecretsAreSplitAtCommasTrimmedAndBlanksDropped() {
        assertThat(SinkRoutes.secrets(" new , old,,")).containsExactly("new", "old");
        assertThat(SinkRoutes.secrets("only")).containsExactly("only");
        assertThat(SinkRoutes.secrets(" , ")).isEmpty();
        assertThat(SinkRoutes.secrets(null)).isEmpty();
    }
}
