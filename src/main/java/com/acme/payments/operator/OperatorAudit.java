package com.acme.payments.operator;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.servlet.HandlerInterceptor;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The controllers' one call for the audit trail: {@link #record} writes the action when it is asked for
 * (so it stays on record if the instance dies mid-way) and remembers it for the request; when the request
 * completes, the answer the operator got — its status after the problem advice mapped any exception —
 * becomes the action's outcome ({@link Outcome}): a 409 abandon is {@code refused}, not done.
 */
@Component
public class OperatorAudit implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(OperatorAudit.class);
    private static final String ACTIONS = OperatorAudit.class.getName() + ".actions";

    private final OperatorActionStore store;

    OperatorAudit(OperatorActionStore store) {
        this.store = store;
    }

    /** {@code target} names the resource, e.g. {@code order:ord-1}, {@code refund:rfd_…}, {@code outbox:42}. */
    public void record(String actor, String action, String target, String reason) {
        long id = store.record(actor, action, target, reason);
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        if (request == null) {
            return; // not a request (none today): the action stays without an outcome
        }
        @SuppressWarnings("unchecked")
        List<Long> ids = (List<Long>) request.getAttribute(ACTIONS, RequestAttributes.SCOPE_REQUEST);
        if (ids == null) {
            ids = new ArrayList<>(1);
            request.setAttribute(ACTIONS, ids, RequestAttributes.SCOPE_REQUEST);
        }
        ids.add(id);
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
            Exception ex) {
        @SuppressWarnings("unchecked")
        List<Long> ids = (List<Long>) request.getAttribute(ACTIONS);
        if (ids == null) {
            return;
        }
        // ex is set only when no handler answered it: the container then answers 500 whatever the status says
        int status = ex != null ? 500 : response.getStatus();
        Outcome outcome = Outcome.of(status, response.getHeader(HttpHeaders.RETRY_AFTER) != null);
        for (long id : ids) {
            try {
                store.settle(id, outcome, status);
            } catch (RuntimeException e) {
                // the answer is already sent; the action stays on record without its outcome
                log.warn("operator action outcome not recorded, id={} outcome={} status={} error={}", id,
                        outcome.label(), status, e.getClass().getSimpleName());
            }
        }
    }
}
