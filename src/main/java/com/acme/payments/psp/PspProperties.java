package com.acme.payments.psp;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import com.acme.payments.common.config.RequiredSetting;

/**
 * Which provider and how to reach it ({@code payments.psp.*}). With the Gateway (the default) the URL and
 * both keys are required: the service refuses to start without them, naming the variable; with Stripe
 * they are not (its settings are {@code STRIPE_*}). The read timeout bounds every PSP call,
 * including those made by the sweeps. The client sends {@code webhookUrl} with every create, so no
 * caller (checkout, refund) needs to know it.
 *
 * @param provider the active {@link PaymentProvider} adapter ({@code PSP_PROVIDER}): {@code gateway} or
 *        {@code stripe}
 * @param apiUrl base URL of the PSP Gateway API ({@code PSP_API_URL}); required
 * @param apiKey Bearer key of the PSP API ({@code PSP_API_KEY}); required, never logged
 * @param signingKey HMAC-SHA256 key of the PSP webhook {@code Signature} header ({@code PSP_SIGNING_KEY});
 *        required, never logged; several keys, comma-separated, while the PSP's key rolls (any one verifies)
 * @param connectTimeout connect timeout of every PSP call
 * @param readTimeout read timeout of every PSP call (the sweep's in-flight age must exceed it)
 * @param userAgent User-Agent header sent to the PSP
 * @param webhookUrl where the PSP posts this service's webhooks: {@code /webhooks/psp} under
 *        {@code APP_PUBLIC_URL}, the load balancer's address (application.yml builds it); never localhost by
 *        default
 */
@Validated
@ConfigurationProperties("payments.psp")
public record PspProperties(@DefaultValue("gateway") Provider provider, String apiUrl, String apiKey,
        String signingKey,
        @DefaultValue("5s") Duration connectTimeout, @DefaultValue("30s") Duration readTimeout,
        @DefaultValue("acme-payments/0.1 (+checkout)") String userAgent,
        // "/webhooks/psp" alone is what an unset APP_PUBLIC_URL leaves: the same one start-up line
        @Pattern(regexp = "https?://.+", message = RequiredSetting.APP_PUBLIC_URL) String webhookUrl) {

    static final String WEBHOOK_PATH = "/webhooks/psp";

    public PspProperties {
        if (webhookUrl != null) { // APP_PUBLIC_URL may end in '/'
            webhookUrl = webhookUrl.replaceFirst("/+" + WEBHOOK_PATH.substring(1) + "$", WEBHOOK_PATH);
        }
    }

    public enum Provider {
        GATEWAY, STRIPE
    }

    public boolean gateway() {
        return provider == Provider.GATEWAY;
    }

    // the Gateway's three settings are required only when it is the provider
    @AssertTrue(message = RequiredSetting.PSP_API_URL)
    public boolean isApiUrlSet() {
        return !gateway() || (apiUrl != null && !apiUrl.isBlank());
    }

    @AssertTrue(message = RequiredSetting.PSP_API_KEY)
    public boolean isApiKeySet() {
        return !gateway() || (apiKey != null && !apiKey.isBlank());
    }

    @AssertTrue(message = RequiredSetting.PSP_SIGNING_KEY)
    public boolean isSigningKeySet() {
        // "," or " , " holds no key: the same one start-up line as an unset variable
        return !gateway() || !signingKeys().isEmpty();
    }

    /** The keys of {@code signingKey}: split at commas, trimmed, blanks dropped, in the order given. */
    public List<String> signingKeys() {
        return signingKey == null ? List.of()
                : Arrays.stream(signingKey.split(",")).map(String::trim).filter(k -> !k.isEmpty()).toList();
    }

    @Override
    public String toString() { // never the key or the signing secret
        return "PspProperties[provider=" + provider + ", apiUrl=" + apiUrl + ", connectTimeout=" + connectTimeout + ", readTimeout="
                + readTimeout + ", webhookUrl=" + webhookUrl + "]";
    }
}
