package com.acme.payments.common.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * dispatcher's order, the request left as it was (its parsed path and the attributes a mapping sets). What it
 * finds is handed to the dispatcher ({@link AuthorizedHandlerMapping}), so the handler judged is the one that
 * runs. A lookup that fails (a method or Content-Type the path does not take)
 * is no handler: Spring MVC then gives its own 405 or 415, as before any credential was looked at.
 */
final class HandlerLookup {

    /** The handler and the path's variables ({@code orderRef}); the handler is null for none. */
    record Found(Object handler, Map<String, String> variables) {
    }

    private final ApplicationContext context;
    private volatile List<HandlerMapping> mappings;

    HandlerLookup(ApplicationContext context) {
        this.context = context;
    }

    Found find(HttpServletRequest request) {
        Set<String> before = new HashSet<>(Collections.list(request.getAttributeNames()));
        RequestPath previous = ServletRequestPathUtils.hasParsedRequestPath(request)
                ? ServletRequestPathUtils.getParsedRequestPath(request) : null;
        ServletRequestPathUtils.parseAndCache(request);
        HandlerExecutionChain chain = null;
        Map<String, Object> set = new HashMap<>();
        try {
            for (HandlerMapping mapping : mappings()) {
                chain = mapping.getHandler(request);
                if (chain != null) {
                    break;
                }
            }
        } catch (Exception noMatch) {
            chain = null;
        } finally {
            // what the finding mapping set is taken off the request, and kept for the dispatcher's turn
            for (String name : Collections.list(request.getAttributeNames())) {
                if (!before.contains(name)) {
                    if (!ServletRequestPathUtils.PATH_ATTRIBUTE.equals(name)) {
                        set.put(name, request.getAttribute(name));
                    }
                    request.removeAttribute(name);
                }
            }
            ServletRequestPathUtils.setParsedRequestPath(previous, request);
        }
        if (chain == null) {
            return new Found(null, Map.of());
        }
        AuthorizedHandlerMapping.keep(request, chain, set);
        return new Found(chain.getHandler(), variables(set));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> variables(Map<String, Object> attributes) {
        Object variables = attributes.get(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
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
