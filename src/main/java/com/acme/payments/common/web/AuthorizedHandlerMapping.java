package com.acme.payments.common.web;

import java.util.Map;

import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Hands the dispatcher the handler {@link AccessRules} judged ({@link HandlerLookup}) instead of looking it up a
 * second time: the handler that runs is the one authorized, and a request pays for one look-up. First of the
 * mappings, and only for the request dispatch of the URI that was looked up; anything else (an error page, an async
 * or forward dispatch, a request the rules never looked up) finds its handler through the mappings after it.
 */
final class AuthorizedHandlerMapping implements HandlerMapping, Ordered {

    private static final String KEPT = AuthorizedHandlerMapping.class.getName() + ".kept";

    /** The looked-up chain, the URI it was found for, and the attributes the finding mapping set. */
    private record Kept(HandlerExecutionChain chain, String requestUri, Map<String, Object> attributes) {
    }

    /** Keeps what {@link HandlerLookup} found for this request's dispatch. */
    static void keep(HttpServletRequest request, HandlerExecutionChain chain, Map<String, Object> attributes) {
        request.setAttribute(KEPT, new Kept(chain, request.getRequestURI(), Map.copyOf(attributes)));
    }

    @Override
    public HandlerExecutionChain getHandler(HttpServletRequest request) {
        if (!(request.getAttribute(KEPT) instanceof Kept kept)) {
            return null;
        }
        request.removeAttribute(KEPT); // once: a later dispatch of this request looks up its own handler
        if (request.getDispatcherType() != DispatcherType.REQUEST || !kept.requestUri().equals(request.getRequestURI())) {
            return null;
        }
        kept.attributes().forEach(request::setAttribute);
        return kept.chain();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
