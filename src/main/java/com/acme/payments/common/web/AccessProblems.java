package com.acme.payments.common.web;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.web.servlet.HandlerExceptionResolver;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Renders the chain's refusals as the problems every other answer is: the refusal {@link AccessRules} recorded
 * (401, 403 {@code forbidden} or {@code insufficient-scope}), through Spring MVC's exception resolvers, so the
 * body is {@link ProblemAdvice}'s. Whichever of Spring Security's two paths a refusal takes (the entry point for
 * a request with no authentication, the handler for one with), the answer is the recorded one.
 */
final class AccessProblems implements AuthenticationEntryPoint, AccessDeniedHandler {

    private final HandlerExceptionResolver resolver;

    AccessProblems(HandlerExceptionResolver resolver) {
        this.resolver = resolver;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException ex) {
        render(request, response, new Problems.Unauthenticated());
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException ex) {
        render(request, response, new Problems.Forbidden());
    }

    private void render(HttpServletRequest request, HttpServletResponse response, ApiProblem fallback) {
        ApiProblem problem = request.getAttribute(AccessRules.REFUSAL) instanceof ApiProblem recorded ? recorded
                : fallback;
        resolver.resolveException(request, response, null, problem);
    }
}
