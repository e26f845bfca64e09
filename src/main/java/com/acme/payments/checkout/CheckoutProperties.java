package com.acme.payments.checkout;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Checkout settings. {@code publicUrl} ({@code APP_PUBLIC_URL}) is the load balancer's address (the
 * default return URL is under it; the PSP's webhook URL is {@code payments.psp.webhook-url}, built from it
 * in application.yml). {@code retryAfter} is the Retry-After of checkout's and capture/void's "not known
 * yet" answers. A return URL from the
 * request must start with one of {@code returnUrlPrefixes} ({@code SHOP_RETURN_URL_PREFIXES}), else it
 * would be an open redirect; without one, {@code returnUrl} ({@code SHOP_RETURN_URL}) is used.
 */
@ConfigurationProperties("payments.checkout")
public record CheckoutProperties(String publicUrl, String returnUrl, List<String> returnUrlPrefixes, Duration retryAfter) {

    public CheckoutProperties {
        publicUrl = stripSlash(publicUrl == null || publicUrl.isBlank() ? "http://localhost:8080" : publicUrl);
        returnUrl = returnUrl == null || returnUrl.isBlank() ? publicUrl + "/" : returnUrl;
        returnUrlPrefixes = returnUrlPrefixes == null ? List.of()
                : returnUrlPrefixes.stream().map(String::trim).filter(p -> !p.isEmpty()).toList();
        retryAfter = retryAfter == null ? Duration.ofSeconds(5) : retryAfter;
        URI.create(publicUrl);
        URI.create(returnUrl);
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
