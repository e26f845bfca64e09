package com.acme.payments.common.web;

import java.io.IOException;
import java.util.Optional;

import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Authenticates the {@code Authorization: Bearer} credential for the API's security chain. A key the
 * {@link KeyAuthenticator} knows (configured or issued at run time) becomes a {@link KeyAuthentication} with a
 * {@code SCOPE_<scope>} authority per scope; anything else stays unauthenticated here, as a {@link Caller.Bearer}
 * (perhaps an order's client token, which only the path's order can confirm: {@link AccessRules}) or
 * {@link Caller.Anonymous}. Headers only: no body is read. Not a bean, so it runs in the chain only.
 */
class BearerAuthenticationFilter extends OncePerRequestFilter {

    static final String CALLER = BearerAuthenticationFilter.class.getName() + ".caller";
    private static final String BEARER = "Bearer ";

    private final KeyAuthenticator keys;

    BearerAuthenticationFilter(KeyAuthenticator keys) {
        this.keys = keys;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Caller caller;
        try {
            caller = resolve(request.getHeader(HttpHeaders.AUTHORIZATION));
        } catch (KeysUnverifiable e) {
            response.setHeader(HttpHeaders.RETRY_AFTER, "1");
            MalformedRequestFilter.refuse(response, ProblemType.DATABASE_UNAVAILABLE,
                    "The service cannot reach its database; retry shortly.");
            return;
        }
        request.setAttribute(CALLER, caller);
        if (caller instanceof Caller.Key key) {
            SecurityContext context = SecurityContextHolder.createEmptyContext();
            context.setAuthentication(new KeyAuthentication(key.holder()));
            SecurityContextHolder.setContext(context);
        }
        chain.doFilter(request, response);
    }

    private Caller resolve(String authorization) {
        if (authorization == null || authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return new Caller.Anonymous();
        }
        String credential = authorization.substring(BEARER.length()).trim();
        if (credential.isEmpty() || credential.length() > ConfiguredKeys.MAX_LENGTH) {
            return new Caller.Anonymous();
        }
        Optional<KeyHolder> holder = keys.authenticate(credential);
        return holder.<Caller>map(Caller.Key::new).orElseGet(() -> new Caller.Bearer(Secrets.sha256(credential)));
    }

    /** A recognised key: its holder (never the key) and its scopes as {@code SCOPE_<scope>} authorities. */
    static final class KeyAuthentication extends AbstractAuthenticationToken {

        private final KeyHolder holder;

        KeyAuthentication(KeyHolder holder) {
            super(holder.scopes().stream().map(s -> new SimpleGrantedAuthority(authority(s))).toList());
            this.holder = holder;
            setAuthenticated(true);
        }

        static String authority(Scope scope) {
            return "SCOPE_" + scope.wireName();
        }

        @Override
        public Object getCredentials() {
            return null;
        }

        @Override
        public KeyHolder getPrincipal() {
            return holder;
        }

        @Override
        public String getName() {
            return holder.name();
        }
    }
}
