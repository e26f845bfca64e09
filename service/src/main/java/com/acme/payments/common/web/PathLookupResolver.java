package com.acme.payments.common.web;

import java.util.List;
import java.util.Map;

import org.springframework.core.MethodParameter;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerMapping;

/** Resolves a controller parameter whose type some {@link PathLookup} finds, from that lookup's path variable. */
@Component
class PathLookupResolver implements HandlerMethodArgumentResolver {

    private final List<PathLookup<?>> lookups;

    PathLookupResolver(List<PathLookup<?>> lookups) {
        this.lookups = lookups;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return lookupFor(parameter) != null;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
            WebDataBinderFactory binderFactory) {
        PathLookup<?> lookup = lookupFor(parameter);
        @SuppressWarnings("unchecked")
        Map<String, String> variables = (Map<String, String>) request.getAttribute(
                HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        String value = variables == null ? null : variables.get(lookup.variable());
        if (value == null) { // a mapping bug, not a request's: the path has no such variable
            throw new IllegalStateException(parameter.getExecutable() + " has no {" + lookup.variable() + "} in its path");
        }
        return lookup.require(value);
    }

    private PathLookup<?> lookupFor(MethodParameter parameter) {
        for (PathLookup<?> lookup : lookups) {
            if (lookup.type().equals(parameter.getParameterType())) {
                return lookup;
            }
        }
        return null;
    }
}
