package com.acme.payments.psp;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import com.acme.payments.common.config.RequiredSetting;

/**
 * How to reach the PSP ({@code payments.psp.*}). The URL and both keys are required: the service
 * refuses to start without them, naming the variable. The read timeout bounds every PSP call,
 * including those made by the sweeps.
 *
 * @param apiUrl base URL of the PSP Gateway API ({@code PSP_API_URL}); required
 * @param apiKey Bearer key of the PSP API ({@code PSP_API_KEY}); required, never logged
 * @param signingKey HMAC-SHA256 key of the PSP webhook {@code Signature} header ({@code PSP_SIGNING_KEY});
 *        required, never logged
 * @param connectTimeout connect timeout of every PSP call
 * @param readTimeout read timeout of every PSP call (the sweep's in-flight age must exceed it)
 * @param userAgent User-Agent header sent to the PSP
 */
@Validated
@ConfigurationProperties("payments.psp")
public record PspProperties(@NotBlank(message = RequiredSetting.PSP_API_URL) String apiUrl,
        @NotBlank(message = RequiredSetting.PSP_API_KEY) String apiKey,
        @NotBlank(message = RequiredSetting.PSP_SIGNING_KEY) String signingKey,
        @DefaultValue("5s") Duration connectTimeout, @DefaultValue("30s") Duration readTimeout,
        @DefaultValue("acme-payments/0.1 (+checkout)") String userAgent) {

    @Override
    public String toString() { // never the key or the signing secret
        return "PspProperties[apiUrl=" + apiUrl + ", connectTimeout=" + connectTimeout + ", readTimeout="
                + readTimeout + "]";
    }
}
