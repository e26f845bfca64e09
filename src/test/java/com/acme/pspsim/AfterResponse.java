package com.acme.pspsim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Runs work once the HTTP answer has been flushed: webhooks caused by a call are released only
 * after its answer is on the wire, so "webhook before the response" is a fault, not a race.
 * Outside a request the work runs at once.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class AfterResponse extends OncePerRequestFilter {

    private static final String KEY = AfterResponse.class.getName();

    /** Queues {@code task} until the current answer is flushed, or runs it now outside a request. */
    static void run(Runnable task) {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        @SuppressWarnings("unchecked")
        List<Runnable> queue = attributes == null ? null
                : (List<Runnable>) attributes.getAttribute(KEY, RequestAttributes.SCOPE_REQUEST);
        if (queue == null) {
            task.run();
        } else {
            queue.add(task);
        }
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        List<Runnable> queue = new ArrayList<>();
        request.setAttribute(KEY, queue);
        try {
            chain.doFilter(request, response);
        } finally {
            request.removeAttribute(KEY);
            if (!queue.isEmpty()) {
                try {
                    response.flushBuffer();
                } catch (IOException | RuntimeException clientGone) {
                    // the caller hung up or the connection was dropped on purpose: the work still happens
                }
                queue.forEach(Runnable::run);
            }
        }
    }
}
