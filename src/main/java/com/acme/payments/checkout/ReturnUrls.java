package com.acme.payments.checkout;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.RequestRules;

/**
 * Chooses the customer's return URL: the shop's default, or a requested one under an allowed prefix.
 * Compared by origin (scheme, host, port) and then by path prefix on a segment boundary — never as
 * strings, which would let {@code https://shop.example.com} admit {@code https://shop.example.com.evil.example/}
 * or {@code https://shop.example.com@evil.example/}. A URL with user info is refused outright.
 */
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
        // java.net.URI lets a bidirectional override through in a path: the request rules refuse it first
        URI uri = requested.length() > 2048 || !RequestRules.isPlainText(requested) ? null : absoluteHttp(requested);
        if (uri == null || properties.returnUrlPrefixes().stream().noneMatch(prefix -> allows(prefix, uri))) {
            throw Problems.ValidationFailed.of("returnUrl", "must start with one of the shop's allowed return URL prefixes");
        }
        return requested;
    }

    static boolean allows(String prefix, URI requested) {
        URI allowed = absoluteHttp(prefix);
        if (allowed == null || !sameOrigin(allowed, requested)) {
            return false;
        }
        String base = allowed.getRawPath() == null || allowed.getRawPath().isEmpty() ? "/" : allowed.getRawPath();
        String path = requested.getRawPath() == null || requested.getRawPath().isEmpty() ? "/" : requested.getRawPath();
        if (base.endsWith("/")) {
            return path.startsWith(base);
        }
        return path.equals(base) || path.startsWith(base + "/");
    }

    private static boolean sameOrigin(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme())
                && a.getHost().toLowerCase(Locale.ROOT).equals(b.getHost().toLowerCase(Locale.ROOT))
                && port(a) == port(b);
    }

    private static int port(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    /** The URL parsed, when it is an absolute http(s) URL with a host and no user info; else null. */
    private static URI absoluteHttp(String url) {
        if (url.chars().anyMatch(c -> c < 0x21 || c == '\\' || c == 0x7f)) {
            return null;
        }
        try {
            URI uri = new URI(url);
            boolean http = "https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme());
            return uri.isAbsolute() && http && uri.getHost() != null && uri.getRawUserInfo() == null
                    && uri.getRawAuthority() != null && !uri.getRawAuthority().contains("@") ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
