package com.acme.payments.common.web;

import java.lang.annotation.Annotation;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;

import com.acme.payments.common.web.Allow.Role;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Enforces {@link Allow} before Spring reads the request body: 401 for no credential or one we do not
 * know, 403 for a valid credential that may not touch this endpoint or this order. Deny by default: a
 * mapping with neither {@link Allow} nor {@link Public} is refused (403 for a shop or admin key, else 401), as is
 * any handler kind not named below.
 */
@Component
class AccessInterceptor implements HandlerInterceptor {

    static final String CALLER = AccessInterceptor.class.getName() + ".caller";

    private final CallerResolver callers;
    private final OrderTokens tokens;

    AccessInterceptor(CallerResolver callers, OrderTokens tokens) {
        this.callers = callers;
        this.tokens = tokens;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getDispatcherType() == DispatcherType.ERROR) {
            return true; // renders the problem for a request already checked (or refused before dispatch)
        }
        Caller caller = callers.resolve(request.getHeader(HttpHeaders.AUTHORIZATION));
        request.setAttribute(CALLER, caller);
        if (handler instanceof ResourceHttpRequestHandler) {
            return true; // no static resources are packaged: this handler only answers 404 for unknown paths
        }
        if (CorsUtils.isPreFlightRequest(request) && !(handler instanceof HandlerMethod)) {
            // Spring MVC's preflight handler: it runs no controller and, with no CORS configuration for the path
            // (ShopOriginsCors answers the token endpoints' preflights before Spring MVC), adds no CORS header.
            // Refused here it became a 500: the problem advice renders only for controller methods.
            return true;
        }
        if (!(handler instanceof HandlerMethod method)) {
            throw refusal(caller);
        }
        Allow allow = rule(method, Allow.class);
        if (allow == null) {
            if (rule(method, Public.class) != null || isApiDescription(method)) {
                return true;
            }
            throw refusal(caller);
        }
        List<Role> roles = Arrays.asList(allow.value());
        if (caller instanceof Caller.Shop) {
            return permitted(roles.contains(Role.SHOP));
        }
        if (caller instanceof Caller.Admin) {
            return permitted(roles.contains(Role.ADMIN));
        }
        if (caller instanceof Caller.Bearer bearer) {
            String orderRef = orderRef(request);
            if (roles.contains(Role.ORDER_TOKEN) && orderRef != null && tokens.belongsTo(orderRef, bearer.tokenHash())) {
                return true;
            }
            if (tokens.exists(bearer.tokenHash())) {
                throw new Problems.Forbidden();
            }
        }
        throw new Problems.Unauthenticated();
    }

    private static <A extends Annotation> A rule(HandlerMethod method, Class<A> type) {
        A onMethod = method.getMethodAnnotation(type);
        return onMethod != null ? onMethod : method.getBeanType().getAnnotation(type);
    }

    /** springdoc's generated description ({@code /v3/api-docs}) is public by decision (docs/api.md). */
    private static boolean isApiDescription(HandlerMethod method) {
        return method.getBeanType().getName().startsWith("org.springdoc.");
    }

    private static RuntimeException refusal(Caller caller) {
        boolean known = caller instanceof Caller.Shop || caller instanceof Caller.Admin;
        return known ? new Problems.Forbidden() : new Problems.Unauthenticated();
    }

    private static boolean permitted(boolean allowed) {
        if (!allowed) {
            throw new Problems.Forbidden();
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private static String orderRef(HttpServletRequest request) {
        Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        return variables instanceof Map<?, ?> map ? ((Map<String, String>) map).get("orderRef") : null;
    }
}
