package com.acme.payments.checkout;

import java.net.URI;
import java.net.URISyntaxException;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Problems;

/** Chooses the customer's return URL: the shop's default, or a requested one under an allowed prefix. */
@Component
class ReturnUrls {

    private final CheckoutProperties properties;

    ReturnUrls(CheckoutProperties properties) {
        this.properties = properties;
    }

    String choose(String requested) {
        if (requested == null || requested.isBlank()) {
            return properties.returnUrl();
        }
        if (requested.length() > 2048 || !isAbsoluteHttp(requested)
                || properties.returnUrlPrefixes().stream().noneMatch(requested::startsWith)) {
            throw Problems.ValidationFailed.of("returnUrl", "must start with one of the shop's allowed return URL prefixes");
        }
        return requested;
    }

    private static boolean isAbsoluteHttp(String url) {
        if (url.chars().anyMatch(c -> c < 0x21 || c == '\\' || c == 0x7f)) {
            return false;
        }
        try {
            URI uri = new URI(url);
            return uri.isAbsolute() && uri.getHost() != null
                    && ("https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme()));
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
