package com.acme.pspsim;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The simulator's settings ({@code pspsim.*}, env {@code PSPSIM_*} by relaxed binding).
 *
 * @param apiKey the Bearer key callers of {@code /api/v1/**} must present
 * @param signingKey the HMAC-SHA256 key of the webhook {@code Signature} header
 * @param signatureEncoding {@code HEX} (lowercase, the default) or {@code BASE64}
 * @param publicUrl the browser-facing base of {@code redirectUrl}; blank: taken from the create request
 * @param adminToken the Bearer token of {@code /sim/**}
 * @param timeoutHold how long the {@code TIMEOUT} fault holds a response before dropping it, unless
 *        the rule says {@code delayMs}
 * @param webhookTimeout connect and read timeout of one webhook delivery
 * @param webhookThreads threads delivering webhooks
 * @param refundDeclineAmounts REFUND/WITHDRAWAL amounts that end {@code DECLINED}
 * @param faults fault rules active from the start (and again after {@code POST /sim/reset})
 * @param sinkSecrets per sink (the path segment after {@code /sink/}: notify, conversion, fulfilment, shop-events), the
 *        secret its deliveries must be signed with ({@code Payments-Signature}, or Standard Webhooks with a
 *        {@code whsec_} secret when the delivery carries {@code webhook-id}); a sink without one accepts
 *        unsigned deliveries; several, comma-separated, any of which verifies (a shop switching secrets)
 * @param sinkSignatureTolerance how far a signature's {@code t} may lie from the simulator's clock
 */
@ConfigurationProperties("pspsim")
record SimulatorProperties(String apiKey, String signingKey, SignatureEncoding signatureEncoding, String publicUrl,
        String adminToken, Duration timeoutHold, Duration webhookTimeout, Integer webhookThreads,
        List<BigDecimal> refundDeclineAmounts, List<FaultRule> faults, Map<String, String> sinkSecrets,
        Duration sinkSignatureTolerance) {

    SimulatorProperties {
        require(apiKey, "pspsim.api-key");
        require(signingKey, "pspsim.signing-key");
        require(adminToken, "pspsim.admin-token");
        signatureEncoding = signatureEncoding == null ? SignatureEncoding.HEX : signatureEncoding;
        publicUrl = publicUrl == null || publicUrl.isBlank() ? null : stripSlash(publicUrl.trim());
        timeoutHold = timeoutHold == null ? Duration.ofSeconds(35) : timeoutHold;
        webhookTimeout = webhookTimeout == null ? Duration.ofSeconds(5) : webhookTimeout;
        webhookThreads = webhookThreads == null || webhookThreads < 1 ? 4 : webhookThreads;
        refundDeclineAmounts = refundDeclineAmounts == null ? List.of() : List.copyOf(refundDeclineAmounts);
        faults = faults == null ? List.of() : List.copyOf(faults);
        sinkSecrets = sinkSecrets == null ? Map.of() : Map.copyOf(sinkSecrets);
        sinkSignatureTolerance = sinkSignatureTolerance == null ? Duration.ofMinutes(5) : sinkSignatureTolerance;
    }

    /** How the webhook signature is encoded. */
    enum SignatureEncoding {
        HEX, BASE64
    }

    boolean declinesRefundOf(BigDecimal amount) {
        return refundDeclineAmounts.stream().anyMatch(a -> a.compareTo(amount) == 0);
    }

    private static void require(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set");
        }
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Override
    public String toString() { // never the keys
        return "SimulatorProperties[publicUrl=" + publicUrl + ", signatureEncoding=" + signatureEncoding
                + ", faults=" + faults.size() + ", signedSinks=" + sinkSecrets.keySet() + "]";
    }
}
