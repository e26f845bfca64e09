package com.acme.payments.checkout;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import com.acme.payments.common.config.RequiredSetting;

/**
 * Checkout settings ({@code payments.checkout.*}). Both URLs are required outside the development
 * launcher — never a silent {@code localhost}, which would send the PSP's webhooks nowhere.
 *
 * @param publicUrl the load balancer's address ({@code APP_PUBLIC_URL}): the PSP posts webhooks to
 *        {@code publicUrl + /webhooks/psp} ({@code payments.psp.webhook-url}, built from it in application.yml),
 *        never to one instance; required
 * @param returnUrl where the customer lands after the hosted page when the checkout names no return URL
 *        ({@code SHOP_RETURN_URL}); required
 * @param returnUrlPrefixes allowed prefixes of a return URL in the checkout body
 *        ({@code SHOP_RETURN_URL_PREFIXES}, comma-separated, compared by origin then path); none: only
 *        {@code returnUrl} is used
 * @param retryAfter the {@code Retry-After} of checkout's and capture/void's "not known yet" answers
 */
@Validated
@ConfigurationProperties("payments.checkout")
public record CheckoutProperties(@NotBlank(message = RequiredSetting.APP_PUBLIC_URL) String publicUrl,
        @NotBlank(message = RequiredSetting.SHOP_RETURN_URL) String returnUrl, List<String> returnUrlPrefixes,
        @DefaultValue("5s") Duration retryAfter) {

    public CheckoutProperties {
        publicUrl = stripSlash(publicUrl);
        returnUrlPrefixes = returnUrlPrefixes == null ? List.of()
                : returnUrlPrefixes.stream().map(String::trim).filter(p -> !p.isEmpty()).toList();
        if (publicUrl != null && !publicUrl.isBlank()) {
            URI.create(publicUrl);
        }
        if (returnUrl != null && !returnUrl.isBlank()) {
            URI.create(returnUrl);
        }
    }

    private static String stripSlash(String url) {
        return url != null && url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
