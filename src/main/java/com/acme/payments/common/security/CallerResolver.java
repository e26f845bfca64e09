package com.acme.payments.common.security;

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
class CallerResolver implements HandlerMethodArgumentResolver {

    private static final String BEARER = "Bearer ";

    private final List<byte[]> shopKeys;
    private final List<byte[]> adminKeys;

    CallerResolver(AuthProperties properties) {
        this.shopKeys = properties.shopKeys().stream().map(Secrets::sha256).toList();
        this.adminKeys = properties.adminKeys().stream().map(Secrets::sha256).toList();
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
        boolean admin = matchesAny(presented, adminKeys);
        boolean shop = matchesAny(presented, shopKeys);
        if (admin) {
            return new Caller.Admin();
        }
        if (shop) {
            return new Caller.Shop();
        }
        return new Caller.Bearer(presented);
    }

    private static boolean matchesAny(byte[] presented, List<byte[]> keys) {
        boolean match = false;
        for (byte[] key : keys) {
            match |= MessageDigest.isEqual(presented, key);
        }
        return match;
    }
}
