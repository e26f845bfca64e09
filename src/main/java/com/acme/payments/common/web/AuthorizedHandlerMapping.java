package com.acme.payments.common.web;

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

    /** The looked-up chain and the URI it was found for. */
    private record Kept(HandlerExecutionChain chain, String requestUri) {
    }

    /**
     * Keeps what {@link HandlerLookup} found for this request's dispatch; the attributes the finding mapping set
     * (the path's variables, the best pattern) are on the request already.
     */
    static void keep(HttpServletRequest request, HandlerExecutionChain chain) {
        request.setAttribute(KEPT, new Kept(chain, request.getRequestURI()));
    }

    /** A refused request dispatches nothing. */
    static void forget(HttpServletRequest request) {
        request.removeAttribute(KEPT);
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
        return kept.chain();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
