package com.acme.payments.common.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.cors.DefaultCorsProcessor;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.CorsFilter;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * CORS for the shop's frontend, Spring's own {@link CorsFilter}: the origins of {@code SHOP_ORIGINS} may call
 * the three endpoints the frontend calls with an order's {@code clientToken} — {@code GET /api/orders/{orderRef}},
 * {@code POST …/checkout}, {@code GET …/return} — and nothing else. A filter, ahead of Spring MVC, so a
 * preflight (which carries no credential, by the Fetch standard) is answered here and never reaches
 * the security chain ({@link AccessRules}); every other path is not filtered at all, so an admin endpoint or a webhook
 * never carries {@code Access-Control-Allow-Origin}: its preflight reaches Spring MVC's preflight handler,
 * which finds no CORS configuration and answers 200 without any CORS header (a refusal, to a browser).
 * <p>
 * Two departures from Spring's default processor, both to keep the contract: an actual request from an
 * origin not allowed is not refused here (403 {@code Invalid CORS request} would come before the contract's
 * 401/403 → 404 → 400 order and in no problem shape) — it is answered as usual without
 * {@code Access-Control-Allow-Origin}, which is what makes the browser withhold it; and a preflight names the
 * allowed headers as configured ({@code Authorization, Content-Type}), not echoed in the request's spelling.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class ShopOriginsCors extends CorsFilter {

    static final List<String> ALLOWED_HEADERS = List.of(HttpHeaders.AUTHORIZATION, HttpHeaders.CONTENT_TYPE);

    private final UrlBasedCorsConfigurationSource source;

    @Autowired
    ShopOriginsCors(AuthProperties properties) {
        this(source(properties.shopOrigins()));
    }

    private ShopOriginsCors(UrlBasedCorsConfigurationSource source) {
        super(source);
        this.source = source;
        setCorsProcessor(new ContractProcessor());
    }

    /** Only the token endpoints are CORS endpoints; no origin configured: none is. */
    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return source.getCorsConfiguration(request) == null;
    }

    private static UrlBasedCorsConfigurationSource source(List<String> origins) {
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        if (!origins.isEmpty()) {
            source.registerCorsConfiguration("/api/orders/{orderRef}", config(origins, HttpMethod.GET));
            source.registerCorsConfiguration("/api/orders/{orderRef}/checkout", config(origins, HttpMethod.POST));
            source.registerCorsConfiguration("/api/orders/{orderRef}/return", config(origins, HttpMethod.GET));
        }
        return source;
    }

    private static CorsConfiguration config(List<String> origins, HttpMethod method) {
        CorsConfiguration config = new CorsConfiguration();
        config.setAllowedOrigins(origins);
        config.setAllowedMethods(List.of(method.name()));
        config.setAllowedHeaders(ALLOWED_HEADERS);
        config.setExposedHeaders(List.of(HttpHeaders.RETRY_AFTER)); // a 409's Retry-After, readable by the page
        config.setAllowCredentials(false); // the bearer travels in Authorization, never in a cookie
        config.setMaxAge(Duration.ofMinutes(10));
        return config;
    }

    private static final class ContractProcessor extends DefaultCorsProcessor {

        @Override
        public boolean processRequest(CorsConfiguration config, HttpServletRequest request,
                HttpServletResponse response) throws IOException {
            if (config == null || CorsUtils.isPreFlightRequest(request)) {
                return super.processRequest(config, request, response);
            }
            HttpMethod method = HttpMethod.valueOf(request.getMethod());
            if (config.checkOrigin(request.getHeader(HttpHeaders.ORIGIN)) != null && config.checkHttpMethod(method) != null) {
                return super.processRequest(config, request, response);
            }
            if (!response.getHeaders(HttpHeaders.VARY).contains(HttpHeaders.ORIGIN)) {
                response.addHeader(HttpHeaders.VARY, HttpHeaders.ORIGIN);
            }
            return true; // answered as usual, without Access-Control-Allow-Origin
        }

        @Override
        protected List<String> checkHeaders(CorsConfiguration config, List<String> requestHeaders) {
            return super.checkHeaders(config, requestHeaders) == null ? null : config.getAllowedHeaders();
        }

        /** A refused preflight: 403 as a problem, like every other answer. */
        @Override
        protected void rejectRequest(ServerHttpResponse response) throws IOException {
            response.setStatusCode(HttpStatus.FORBIDDEN);
            response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
            response.getBody().write("""
                    {"type":"%s","title":"%s","status":403,"detail":"This origin may not call this endpoint."}"""
                    .formatted(ProblemType.FORBIDDEN.uri(), ProblemType.FORBIDDEN.title())
                    .getBytes(StandardCharsets.UTF_8));
            response.flush();
        }
    }
}
