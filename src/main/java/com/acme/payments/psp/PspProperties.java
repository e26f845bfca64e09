package com.acme.payments.psp;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

import com.acme.payments.common.config.MissingSetting;

/**
 * How to reach the PSP. {@code PSP_API_URL}, {@code PSP_API_KEY} and {@code PSP_SIGNING_KEY} are
 * required; the service refuses to start without them. The read timeout bounds every PSP call,
 * including those made by the sweeps. {@code webhookUrl} is where the PSP posts this service's webhooks
 * ({@code /webhooks/psp} under {@code APP_PUBLIC_URL}, the load balancer's address); the client sends it
 * with every create, so no caller (checkout, refund) needs to know it.
 */
@ConfigurationProperties("payments.psp")
public record PspProperties(String apiUrl, String apiKey, String signingKey, Duration connectTimeout,
        Duration readTimeout, String userAgent, String webhookUrl) {

    static final String WEBHOOK_PATH = "/webhooks/psp";

    public PspProperties {
        MissingSetting.require(apiUrl, "PSP_API_URL");
        MissingSetting.require(apiKey, "PSP_API_KEY");
        MissingSetting.require(signingKey, "PSP_SIGNING_KEY");
        connectTimeout = connectTimeout == null ? Duration.ofSeconds(5) : connectTimeout;
        readTimeout = readTimeout == null ? Duration.ofSeconds(30) : readTimeout;
        userAgent = userAgent == null || userAgent.isBlank() ? "acme-payments/0.1 (+checkout)" : userAgent;
        webhookUrl = webhookUrl == null || webhookUrl.isBlank() || webhookUrl.startsWith("/")
                ? "http://localhost:8080" + WEBHOOK_PATH
                : webhookUrl.replaceFirst("/+" + WEBHOOK_PATH.substring(1) + "$", WEBHOOK_PATH); // APP_PUBLIC_URL may end in '/'
        URI.create(webhookUrl);
    }

    @Override
    public String toString() { // never the key or the signing secret
        return "PspProperties[apiUrl=" + apiUrl + ", connectTimeout=" + connectTimeout + ", readTimeout="
                + readTimeout + ", webhookUrl=" + webhookUrl + "]";
    }
}
