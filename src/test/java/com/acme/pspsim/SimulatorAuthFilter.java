package com.acme.pspsim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Bearer auth: {@code /api/**} needs {@code pspsim.api-key}, {@code /sim/**} needs
 * {@code pspsim.admin-token}; both compared in constant time. The hosted page, the sink and
 * {@code /actuator/health} are open, as a browser and the service's outbox must reach them.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class SimulatorAuthFilter extends OncePerRequestFilter {

    private final byte[] apiKey;
    private final byte[] adminToken;
    private final Clock clock;

    SimulatorAuthFilter(SimulatorProperties properties, Clock clock) {
        this.apiKey = properties.apiKey().getBytes(StandardCharsets.UTF_8);
        this.adminToken = properties.adminToken().getBytes(StandardCharsets.UTF_8);
        this.clock = clock;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        byte[] expected = path.startsWith("/api/") ? apiKey : path.startsWith("/sim/") || path.equals("/sim")
                ? adminToken : null;
        if (expected != null && !presents(request, expected)) {
            response.setStatus(401);
            response.setHeader("WWW-Authenticate", "Bearer");
            response.setContentType("application/json");
            response.getWriter().write("""
                    {"timestamp":"%s","status":401,"errorCode":"UNAUTHORIZED","errorMessage":"missing or wrong credential"}"""
                    .formatted(clock.instant()));
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean presents(HttpServletRequest request, byte[] expected) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, expected);
    }
}
