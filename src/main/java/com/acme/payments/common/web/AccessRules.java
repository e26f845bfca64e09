package com.acme.payments.common.web;

import java.util.Set;
import java.util.function.Supplier;

import org.springframework.http.HttpMethod;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The API's access rules, deny by default: finds the handler Spring MVC will run and reads the rule declared
 * beside it ({@link Allow}, or {@link Public} for what authenticates itself). A key needs one of the rule's
 * scopes (403 {@code insufficient-scope} without); an order's client token passes only where the rule admits
 * it and only for its own order (403 for another order's, 401 for one no order has); a handler without a rule is
 * refused (403 to a key, else 401). A refusal is recorded on the request for {@link AccessProblems} to render.
 * No handler at all (unknown path, method not served) passes: Spring MVC answers its own 404/405/415.
 */
final class AccessRules implements AuthorizationManager<RequestAuthorizationContext> {

    /** The refusal of this request, an {@link ApiProblem}. */
    static final String REFUSAL = AccessRules.class.getName() + ".refusal";
    private static final AuthorizationDecision GRANTED = new AuthorizationDecision(true);
    private static final AuthorizationDecision DENIED = new AuthorizationDecision(false);

    private final HandlerLookup handlers;
    private final OrderTokens tokens;

    AccessRules(HandlerLookup handlers, OrderTokens tokens) {
        this.handlers = handlers;
        this.tokens = tokens;
    }

    @Override
    public AuthorizationResult authorize(Supplier<? extends Authentication> authentication,
            RequestAuthorizationContext context) {
        HttpServletRequest request = context.getRequest();
        if (CorsUtils.isPreFlightRequest(request)) {
            // Spring MVC's preflight handler runs no controller; the token endpoints' preflights were answered
            // before the chain (ShopOriginsCors), so no other path gets a CORS header from it
            return GRANTED;
        }
        Caller caller = Caller.of(request);
        if (isConsolePath(request.getServletPath())) {
            return refuse(request, unruled(caller)); // the console's chain decides its paths; here only by a path trick
        }
        HandlerLookup.Found found = handlers.find(request);
        if (found.handler() == null || found.handler() instanceof ResourceHttpRequestHandler) {
            return GRANTED; // no controller runs: 404 (no static resources are packaged), 405 or 415
        }
        if (!(found.handler() instanceof HandlerMethod method)) {
            return refuse(request, unruled(caller));
        }
        Allow allow = AccessRule.allowOf(method);
        if (allow == null) {
            return AccessRule.isPublic(method) || isApiDescription(method) || isActuator(method) ? GRANTED
                    : refuse(request, unruled(caller));
        }
        boolean get = HttpMethod.GET.matches(request.getMethod()) || HttpMethod.HEAD.matches(request.getMethod());
        Set<Scope> admitted = AccessRule.admitted(allow, get, request.getServletPath());
        if (caller instanceof Caller.Key) {
            return holdsAny(authentication.get(), admitted) ? GRANTED
                    : refuse(request, new Problems.InsufficientScope(admitted));
        }
        if (caller instanceof Caller.Bearer bearer) {
            String orderRef = found.variables().get("orderRef");
            if (allow.orderToken() && orderRef != null && tokens.belongsTo(orderRef, bearer.tokenHash())) {
                return GRANTED;
            }
            if (tokens.exists(bearer.tokenHash())) {
                return refuse(request, new Problems.Forbidden());
            }
        }
        return refuse(request, new Problems.Unauthenticated());
    }

    private static boolean holdsAny(Authentication authentication, Set<Scope> admitted) {
        if (authentication == null) {
            return false;
        }
        for (GrantedAuthority authority : authentication.getAuthorities()) {
            for (Scope scope : admitted) {
                if (BearerAuthenticationFilter.KeyAuthentication.authority(scope).equals(authority.getAuthority())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static ApiProblem unruled(Caller caller) {
        return caller instanceof Caller.Key ? new Problems.Forbidden() : new Problems.Unauthenticated();
    }

    private static AuthorizationDecision refuse(HttpServletRequest request, ApiProblem problem) {
        HandlerLookup.forget(request);
        request.setAttribute(REFUSAL, problem);
        return DENIED;
    }

    /** An actuator endpoint on the main port: exposure decides (health and prometheus only, docs/security.md). */
    private static boolean isActuator(HandlerMethod method) {
        return method.getBeanType().getName().startsWith("org.springframework.boot.")
                && method.getBeanType().getName().contains(".actuate.");
    }

    /** springdoc's generated description ({@code /v3/api-docs}) is public by decision (docs/api.md). */
    private static boolean isApiDescription(HandlerMethod method) {
        return method.getBeanType().getName().startsWith("org.springdoc.");
    }

    /** {@code /console} itself or a path under it (not {@code /consoles}). */
    static boolean isConsolePath(String path) {
        return path.equals("/console") || path.startsWith("/console/") || path.startsWith("/console;");
    }
}
