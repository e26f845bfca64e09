package com.acme.payments.common.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.http.server.RequestPath;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Finds the handler Spring MVC will run for a request, from a filter: the handler mappings asked in the
 * dispatcher's order. What it finds, with the attributes its mapping set, is the dispatcher's
 * ({@link AuthorizedHandlerMapping}): the handler judged is the one that runs, looked up once. A lookup that
 * fails (a method or Content-Type the path does not take)
 * is no handler: Spring MVC then gives its own 405 or 415, as before any credential was looked at.
 */
final class HandlerLookup {

    /** The handler and the path's variables ({@code orderRef}); the handler is null for none. */
    record Found(Object handler, Map<String, String> variables) {
    }

    /** What a mapping sets on the request it matched. */
    private static final List<String> MAPPING_ATTRIBUTES = List.of(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE,
            HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, HandlerMapping.PATH_WITHIN_HANDLER_MAPPING_ATTRIBUTE,
            HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, HandlerMapping.MATRIX_VARIABLES_ATTRIBUTE,
            HandlerMapping.PRODUCIBLE_MEDIA_TYPES_ATTRIBUTE);

    private final ApplicationContext context;
    private volatile List<HandlerMapping> mappings;

    HandlerLookup(ApplicationContext context) {
        this.context = context;
    }

    Found find(HttpServletRequest request) {
        RequestPath previous = ServletRequestPathUtils.hasParsedRequestPath(request)
                ? ServletRequestPathUtils.getParsedRequestPath(request) : null;
        if (previous == null) {
            ServletRequestPathUtils.parseAndCache(request);
        }
        try {
            for (HandlerMapping mapping : mappings()) {
                HandlerExecutionChain chain = mapping.getHandler(request);
                if (chain != null) {
                    // the attributes the mapping set (the path's variables, the pattern) stay for the dispatcher
                    AuthorizedHandlerMapping.keep(request, chain);
                    return new Found(chain.getHandler(), variables(request));
                }
            }
            return new Found(null, Map.of());
        } catch (Exception noMatch) {
            return new Found(null, Map.of());
        } finally {
            if (previous == null) {
                ServletRequestPathUtils.clearParsedRequestPath(request);
            }
        }
    }

    /**
     * A refused request runs no handler: what the look-up left on it goes, so the refusal's problem is rendered as
     * for no handler (a handler's producible types would otherwise hold its content negotiation to them).
     */
    static void forget(HttpServletRequest request) {
        AuthorizedHandlerMapping.forget(request);
        for (String name : MAPPING_ATTRIBUTES) {
            request.removeAttribute(name);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> variables(HttpServletRequest request) {
        Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        return variables instanceof Map<?, ?> map ? Map.copyOf((Map<String, String>) map) : Map.of();
    }

    private List<HandlerMapping> mappings() {
        List<HandlerMapping> known = mappings;
        if (known == null) {
            known = new ArrayList<>(BeanFactoryUtils
                    .beansOfTypeIncludingAncestors(context, HandlerMapping.class, true, false).values());
            known.removeIf(AuthorizedHandlerMapping.class::isInstance);
            AnnotationAwareOrderComparator.sort(known);
            mappings = List.copyOf(known);
        }
        return known;
    }
}
