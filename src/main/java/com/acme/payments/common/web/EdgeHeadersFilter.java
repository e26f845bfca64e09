package com.acme.payments.common.web;

import java.io.IOException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The headers every answer carries, set before anything else runs so that refusals (401, 413, a CORS 403)
 * carry them too: {@code X-Content-Type-Options: nosniff} and {@code Cache-Control: no-store}. The contract
 * asks no-store of answers carrying a {@code clientToken} and of admin answers; it is set on every answer
 * (as Spring Security's defaults do), because the API's answers are each for one caller's credential and
 * nothing the service says is worth caching, so no path list can forget an admin endpoint. Tomcat's own
 * refusals, which never reach a filter, get nosniff from {@link ProblemErrorReportValve}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class EdgeHeadersFilter extends OncePerRequestFilter {

    static final String NOSNIFF_HEADER = "X-Content-Type-Options";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader(NOSNIFF_HEADER, "nosniff");
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        chain.doFilter(request, response);
    }
}
