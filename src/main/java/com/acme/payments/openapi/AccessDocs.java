package com.acme.payments.openapi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.web.method.HandlerMethod;

import com.acme.payments.common.web.Allow.Role;
import com.acme.payments.common.web.Allow;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.security.SecurityRequirement;

/**
 * Documents who may call an operation from the same {@link Allow} annotation that the access check
 * enforces, so the description cannot drift from the enforcement. Any of the listed credentials works.
 */
class AccessDocs implements OperationCustomizer {

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        Allow allow = allowOf(handler);
        if (allow != null) {
            operation.setSecurity(requirements(Arrays.asList(allow.value())));
        }
        return operation;
    }

    /** The method's rule, else its controller's; none for a {@code @Public} endpoint. */
    static Allow allowOf(HandlerMethod handler) {
        Allow allow = handler.getMethodAnnotation(Allow.class);
        return allow != null ? allow : handler.getBeanType().getAnnotation(Allow.class);
    }

    static List<SecurityRequirement> requirements(List<Role> roles) {
        List<SecurityRequirement> any = new ArrayList<>();
        for (Role role : roles) {
            any.add(new SecurityRequirement().addList(scheme(role)));
        }
        return any;
    }

    private static String scheme(Role role) {
        if (role == Role.SHOP) {
            return OpenApiConfig.SHOP_KEY;
        }
        if (role == Role.ADMIN) {
            return OpenApiConfig.ADMIN_KEY;
        }
        return OpenApiConfig.CLIENT_TOKEN;
    }
}
