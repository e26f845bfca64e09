package com.acme.payments.common.web;

import java.security.MessageDigest;
import java.util.List;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Resolves a controller's {@link Caller} parameter from the bearer credential. Every configured key is
 * compared (as a SHA-256 digest, with {@link MessageDigest#isEqual}) without stopping at the first
 * match, so timing says nothing about which key or how much of it matched.
 */
@Component
class CallerResolver implements HandlerMethodArgumentResolver, KeyAuthenticator {

    private static final String BEARER = "Bearer ";

    private final List<byte[]> shopKeys;
    private final List<byte[]> adminKeys;
    private final List<String> adminNames;

    CallerResolver(AuthProperties properties) {
        this.shopKeys = properties.shopKeys().stream().map(Secrets::sha256).toList();
        List<AdminKey> admins = properties.adminKeys().stream().map(AdminKey::parse).toList();
        this.adminKeys = admins.stream().map(a -> Secrets.sha256(a.key())).toList();
        this.adminNames = admins.stream().map(AdminKey::name).toList();
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return Caller.class.equals(parameter.getParameterType());
    }

    @Override
    public Caller resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
            WebDataBinderFactory binderFactory) {
        Object resolved = request.getAttribute(AccessInterceptor.CALLER, NativeWebRequest.SCOPE_REQUEST);
        return resolved instanceof Caller caller ? caller : resolve(request.getHeader(HttpHeaders.AUTHORIZATION));
    }

    Caller resolve(String authorization) {
        if (authorization == null || authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return new Caller.Anonymous();
        }
        String credential = authorization.substring(BEARER.length()).trim();
        if (credential.isEmpty() || credential.length() > 512) {
            return new Caller.Anonymous();
        }
        byte[] presented = Secrets.sha256(credential);
        int admin = indexOf(presented, adminKeys);
        boolean shop = indexOf(presented, shopKeys) >= 0;
        if (admin >= 0) {
            return new Caller.Admin(adminNames.get(admin));
        }
        if (shop) {
            return new Caller.Shop();
        }
        return new Caller.Bearer(presented);
    }

    /** The configured keys as key holders: a shop key holds {@code orders}, an admin key every scope. */
    @Override
    public java.util.Optional<KeyHolder> authenticate(String presentedKey) {
        if (presentedKey == null || presentedKey.isEmpty() || presentedKey.length() > 512) {
            return java.util.Optional.empty();
        }
        Caller caller = resolve(BEARER + presentedKey);
        if (caller instanceof Caller.Admin admin) {
            return java.util.Optional.of(new KeyHolder(admin.name(), java.util.EnumSet.allOf(Scope.class)));
        }
        if (caller instanceof Caller.Shop) {
            return java.util.Optional.of(new KeyHolder("shop", java.util.Set.of(Scope.ORDERS)));
        }
        return java.util.Optional.empty();
    }

    /** Compares with every key, never stopping early; the last match wins (-1 for none). */
    private static int indexOf(byte[] presented, List<byte[]> keys) {
        int match = -1;
        for (int i = 0; i < keys.size(); i++) {
            boolean equal = MessageDigest.isEqual(presented, keys.get(i));
            match = equal ? i : match;
        }
        return match;
    }

    /**
     * One {@code ADMIN_API_KEYS} entry: {@code name:key}, or a bare key (named {@code admin}). Only a
     * prefix that looks like a name (letters, digits, {@code . _ -}, up to 64) is one, so a bare key that
     * happens to contain a colon elsewhere still works whole.
     */
    record AdminKey(String name, String key) {

        private static final java.util.regex.Pattern NAMED = java.util.regex.Pattern
                .compile("([A-Za-z0-9._-]{1,64}):(.+)");

        static AdminKey parse(String entry) {
            java.util.regex.Matcher named = NAMED.matcher(entry);
            return named.matches() ? new AdminKey(named.group(1), named.group(2))
                    : new AdminKey(Caller.Admin.UNNAMED, entry);
        }

        @Override
        public String toString() {
            return "AdminKey[name=" + name + "]";
        }
    }
}
