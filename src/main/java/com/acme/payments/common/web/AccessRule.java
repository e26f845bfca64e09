package com.acme.payments.common.web;

import java.lang.annotation.Annotation;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.springframework.web.method.HandlerMethod;

/**
 * How a handler's declared rule reads, for the check ({@link AccessRules}) and the OpenAPI description alike,
 * so the two cannot drift: the method's {@link Allow}, else its controller's; and the scopes it admits.
 */
public final class AccessRule {

    private static final String API = "/api/";

    private AccessRule() {
    }

    /** The method's rule, else its controller's; null for none. */
    public static Allow allowOf(HandlerMethod method) {
        return declared(method, Allow.class);
    }

    /** Whether the method or its controller is {@link Public}. */
    public static boolean isPublic(HandlerMethod method) {
        return declared(method, Public.class) != null;
    }

    /** The rule's scopes, and {@code read} for a {@code GET} under {@code /api/} unless the rule is the keys'. */
    public static Set<Scope> admitted(Allow allow, boolean get, String path) {
        Set<Scope> admitted = EnumSet.noneOf(Scope.class);
        admitted.addAll(List.of(allow.scopes()));
        if (get && path.startsWith(API) && !admitted.contains(Scope.KEYS)) {
            admitted.add(Scope.READ);
        }
        return admitted;
    }

    private static <A extends Annotation> A declared(HandlerMethod method, Class<A> type) {
        A onMethod = method.getMethodAnnotation(type);
        return onMethod != null ? onMethod : method.getBeanType().getAnnotation(type);
    }
}
