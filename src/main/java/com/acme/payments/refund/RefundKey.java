package com.acme.payments.refund;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.RequestRules;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The caller's refund key, the {@code Idempotency-Key} header: one key is one refund forever. Resolved as a
 * controller argument, after the order and before the body, so a missing key is the 400 a request with an
 * invalid body too gets (the contract's precedence: 404, then 400 for the key, then the body).
 */
record RefundKey(String value) {

    static final int MAX = 255;

    /** Documents the header in the OpenAPI description (the parameter itself is resolved by {@link Resolver}). */
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, required = true,
            description = "The caller's refund key: one key is one refund forever; "
                    + "1-255 printable ASCII characters. Missing: 400 validation-failed.",
            schema = @Schema(type = "string"))
    @interface Header {
    }

    /** Registers the {@link Resolver} with Spring MVC. */
    @Configuration(proxyBeanMethods = false)
    static class Registration implements WebMvcConfigurer {
        @Override
        public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
            resolvers.add(new Resolver());
        }
    }

    static final class Resolver implements HandlerMethodArgumentResolver {

        @Override
        public boolean supportsParameter(MethodParameter parameter) {
            return RefundKey.class.equals(parameter.getParameterType());
        }

        @Override
        public RefundKey resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
                WebDataBinderFactory binderFactory) {
            String key = request.getHeader("Idempotency-Key");
            if (!RequestRules.isKey(key, MAX)) {
                throw Problems.ValidationFailed.of("Idempotency-Key",
                        "a refund key of 1-" + MAX + " printable ASCII characters is required");
            }
            return new RefundKey(key);
        }
    }
}
