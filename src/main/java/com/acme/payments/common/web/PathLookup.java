package com.acme.payments.common.web;

import java.util.Map;
import java.util.Optional;

import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Finds the row a path variable names, or answers 404. A controller declares the row's type as a
 * parameter instead of the variable, and the lookup of that type (a bean, registered with Spring MVC by
 * {@link WebConfig}) resolves it. Arguments are resolved in parameter order after the access check (the
 * security chain), so a row declared before the {@code @RequestBody} keeps the contract's precedence:
 * 401/403, then 404, then 400.
 */
public abstract class PathLookup<T> implements HandlerMethodArgumentResolver {

    private final Class<T> type;
    private final String variable;
    private final String what;

    /**
     * @param type the parameter type this lookup resolves
     * @param variable the path variable that names the row, e.g. {@code orderRef}
     * @param what the row's name in the 404 problem ("Order was not found.")
     */
    protected PathLookup(Class<T> type, String variable, String what) {
        this.type = type;
        this.variable = variable;
        this.what = what;
    }

    /** The row, if the value names one. */
    protected abstract Optional<T> find(String value);

    /** The row, or a 404 problem. */
    public final T require(String value) {
        return find(value).orElseThrow(() -> new Problems.NotFound(what));
    }

    @Override
    public final boolean supportsParameter(MethodParameter parameter) {
        return type.equals(parameter.getParameterType());
    }

    @Override
    public final Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mav,
            NativeWebRequest request, WebDataBinderFactory binderFactory) {
        @SuppressWarnings("unchecked")
        Map<String, String> variables = (Map<String, String>) request.getAttribute(
                HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        String value = variables == null ? null : variables.get(variable);
        if (value == null) { // a mapping bug, not a request's: the path has no such variable
            throw new IllegalStateException(parameter.getExecutable() + " has no {" + variable + "} in its path");
        }
        return require(value);
    }
}
