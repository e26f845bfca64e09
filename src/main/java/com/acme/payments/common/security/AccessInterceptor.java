package com.acme.payments.common.security;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

import com.acme.payments.common.security.Allow.Role;
import com.acme.payments.common.web.Problems;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Enforces {@link Allow} before Spring reads the request body: 401 for no credential or one we do not
 * know, 403 for a valid credential that may not touch this endpoint or this order.
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
        if (!(handler instanceof HandlerMethod method)) {
            return true;
        }
        Allow allow = method.getMethodAnnotation(Allow.class);
        if (allow == null) {
            allow = method.getBeanType().getAnnotation(Allow.class);
        }
        Caller caller = callers.resolve(request.getHeader(HttpHeaders.AUTHORIZATION));
        request.setAttribute(CALLER, caller);
        if (allow == null) {
            return true;
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
