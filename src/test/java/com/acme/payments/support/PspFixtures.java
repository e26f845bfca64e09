package com.acme.payments.support;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;

/** PSP answers and signed webhooks for tests, in the PSP's own shapes. */
public final class PspFixtures {

    public static final String SIGNING_KEY = "test-signing-key";

    /**
     * A stub delay past the test profile's PSP read timeout (4 s) by a margin a loaded machine cannot eat:
     * the timeout is what the test is about, not a race against it.
     */
    public static final int PAST_READ_TIMEOUT_MS = 6_000;

    private PspFixtures() {
    }

    public static String payment(String id, String referenceId, String type, String state, String amount,
            String currency) {
        return """
                {"id":"%s","referenceId":%s,"paymentType":"%s","state":"%s","amount":%s,"currency":"%s",\
                "redirectUrl":"https://psp.test/hosted/%s","errorCode":%s}"""
                .formatted(id, referenceId == null ? "null" : "\"" + referenceId + "\"", type, state, amount, currency,
                        id, state.equals("DECLINED") ? "\"card_declined\"" : "null");
    }

    public static String envelope(String result) {
        return "{\"timestamp\":\"2026-11-29T10:00:00Z\",\"status\":200,\"result\":" + result + "}";
    }

    public static MappingBuilder createCall() {
        return post(urlEqualTo("/api/v1/payments"));
    }

    public static MappingBuilder findCall() {
        return get(urlPathEqualTo("/api/v1/payments"));
    }

    public static MappingBuilder getCall(String paymentId) {
        return get(urlEqualTo("/api/v1/payments/" + paymentId));
    }

    public static ResponseDefinitionBuilder created(String paymentId, String state, String amount, String currency) {
        return okJson(envelope(payment(paymentId, null, "DEPOSIT", state, amount, currency)));
    }

    public static ResponseDefinitionBuilder found(String... payments) {
        return okJson(envelope("[" + String.join(",", payments) + "]"));
    }

    public static ResponseDefinitionBuilder nothingFound() {
        return okJson(envelope("[]"));
    }

    public static ResponseDefinitionBuilder status(int status, String body) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body);
    }

    public static int createCount(WireMockServer psp) {
        return psp.countRequestsMatching(WireMock.postRequestedFor(urlEqualTo("/api/v1/payments")).build()).getCount();
    }

    public static String hmacHex(String body) {
        return HexFormat.of().formatHex(hmac(body.getBytes(StandardCharsets.UTF_8)));
    }

    public static String hmacBase64(String body) {
        return java.util.Base64.getEncoder().encodeToString(hmac(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] hmac(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(SIGNING_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
