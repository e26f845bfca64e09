package com.acme.payments.openapi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;

import com.acme.payments.common.web.AccessRule;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Scope;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.security.SecurityRequirement;

/**
 * Documents who may call an operation from the same {@link Allow} rule that the access check enforces
 * ({@link AccessRule}), so the description cannot drift from the enforcement: a key with any of the scopes
 * listed in {@code x-scopes} (and in the description), or, where admitted, the order's client token.
 */
class AccessDocs implements OperationCustomizer {

    static final String SCOPES = "x-scopes";

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        Allow allow = AccessRule.allowOf(handler);
        if (allow == null) {
            return operation;
        }
        Set<Scope> admitted = AccessRule.admitted(allow, isGet(handler), path(handler));
        List<SecurityRequirement> any = new ArrayList<>();
        any.add(new SecurityRequirement().addList(OpenApiConfig.API_KEY));
        if (allow.orderToken()) {
            any.add(new SecurityRequirement().addList(OpenApiConfig.CLIENT_TOKEN));
        }
        operation.setSecurity(any);
        List<String> names = admitted.stream().map(Scope::wireName).toList();
        operation.addExtension(SCOPES, names);
        String who = "Access: a key with scope " + names.stream().map(n -> "`" + n + "`")
                .collect(Collectors.joining(" or ")) + (allow.orderToken() ? ", or this order's clientToken" : "")
                + ".";
        operation.setDescription(operation.getDescription() == null ? who : operation.getDescription() + "\n\n" + who);
        return operation;
    }

    private static boolean isGet(HandlerMethod handler) {
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        return mapping != null && Arrays.asList(mapping.method()).contains(RequestMethod.GET);
    }

    /** The mapping's first path, with its controller's prefix. */
    private static String path(HandlerMethod handler) {
        RequestMapping type = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), RequestMapping.class);
        RequestMapping method = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        String prefix = type != null && type.path().length > 0 ? type.path()[0] : "";
        String own = method != null && method.path().length > 0 ? method.path()[0] : "";
        return prefix + own;
    }
}
