package com.acme.pspsim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The Stripe surface's key: {@code /v1/**} needs {@code pspsim.stripe.api-key}, as
 * {@code Authorization: Bearer <key>} or Basic with the key as user name (curl's {@code -u sk_test_…:}),
 * compared in constant time; otherwise 401 in Stripe's error shape. The hosted page
 * ({@code /stripe/pay/**}) is open, as a browser must reach it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 11)
class StripeAuthFilter extends OncePerRequestFilter {

    private final byte[] apiKey;

    StripeAuthFilter(StripeSettings settings) {
        this.apiKey = settings.apiKey().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!path.startsWith("/v1/")) {
            chain.doFilter(request, response);
            return;
        }
        String header = request.getHeader("Authorization");
        byte[] given = presented(header);
        if (given == null || !MessageDigest.isEqual(given, apiKey)) {
            String message = given == null
                    ? "You did not provide an API key. You need to provide your API key in the Authorization header, "
                            + "using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."
                    : "Invalid API Key provided: " + masked(new String(given, StandardCharsets.UTF_8));
            response.setStatus(401);
            response.setHeader("WWW-Authenticate", "Bearer realm=\"Stripe\"");
            response.setContentType("application/json");
            response.getWriter().write("{\"error\":{\"message\":\"" + message.replace("\"", "'")
                    + "\",\"type\":\"invalid_request_error\"}}");
            return;
        }
        chain.doFilter(request, response);
    }

    private static byte[] presented(String header) {
        if (header == null) {
            return null;
        }
        if (header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        }
        if (header.regionMatches(true, 0, "Basic ", 0, 6)) {
            try {
                String userAndPassword = new String(Base64.getDecoder().decode(header.substring(6).trim()),
                        StandardCharsets.UTF_8);
                int colon = userAndPassword.indexOf(':');
                return (colon < 0 ? userAndPassword : userAndPassword.substring(0, colon))
                        .getBytes(StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return new byte[0];
            }
        }
        return null;
    }

    private static String masked(String key) {
        return key.length() <= 8 ? "****" : key.substring(0, Math.min(8, key.length() - 4)) + "****"
                + key.substring(key.length() - 4);
    }
}
