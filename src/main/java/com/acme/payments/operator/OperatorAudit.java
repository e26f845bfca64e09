package com.acme.payments.operator;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

import com.acme.payments.common.web.Caller;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Records the {@link Audited} actions: the one writer of the audit trail. A request to an audited handler
 * carries its declaration from {@link #preHandle}; the handler's {@link OperatorNote#asked} writes the
 * action then (so it stays on record if the instance dies mid-way, and a failed write stops the action);
 * when the request completes, the answer the operator got — its status after the problem advice mapped any
 * exception — becomes the action's outcome ({@link Outcome}): a 409 abandon is {@code refused}, not done.
 */
@Component
public class OperatorAudit implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(OperatorAudit.class);
    private static final String ACTION = OperatorAudit.class.getName() + ".action";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]+)}");

    private final OperatorActionStore store;

    OperatorAudit(OperatorActionStore store) {
        this.store = store;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Audited declared = handler instanceof HandlerMethod method ? method.getMethodAnnotation(Audited.class) : null;
        if (declared != null) {
            request.setAttribute(ACTION, new Action(declared, request, store));
        }
        return true;
    }

    /** {@link OperatorNote#asked}: writes the request's declared action with the note's reason. */
    static void asked(OperatorNote note) {
        RequestAttributes attributes = RequestContextHolder.currentRequestAttributes();
        if (!(attributes.getAttribute(ACTION, RequestAttributes.SCOPE_REQUEST) instanceof Action action)) {
            throw new IllegalStateException("OperatorNote.asked() outside an @Audited handler");
        }
        action.record(note);
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
            Exception ex) {
        if (!(request.getAttribute(ACTION) instanceof Action action) || action.id == null) {
            return; // not audited, or refused before it was asked for (401/403, 404, 400): nothing on record
        }
        // ex is set only when no handler answered it: the container then answers 500 whatever the status says
        int status = ex != null ? 500 : response.getStatus();
        Outcome outcome = Outcome.of(status, response.getHeader(HttpHeaders.RETRY_AFTER) != null);
        try {
            store.settle(action.id, outcome, status);
        } catch (RuntimeException e) {
            // the answer is already sent; the action stays on record without its outcome
            log.warn("operator action outcome not recorded, id={} outcome={} status={} error={}", action.id,
                    outcome.label(), status, e.getClass().getSimpleName());
        }
    }

    /**
     * The name a console session signed in with (its key's name, the console's actor); the API's callers, which
     * hold no session, are named by their {@link Caller}.
     */
    private static Optional<String> signedIn() {
        Authentication signedIn = SecurityContextHolder.getContext().getAuthentication();
        return signedIn != null && signedIn.isAuthenticated() && !(signedIn instanceof AnonymousAuthenticationToken)
                ? Optional.of(signedIn.getName()) : Optional.empty();
    }

    /** One request's declared action; {@code id} once it was asked for and written. */
    private static final class Action {

        private final Audited declared;
        private final HttpServletRequest request;
        private final OperatorActionStore store;
        private Long id;

        Action(Audited declared, HttpServletRequest request, OperatorActionStore store) {
            this.declared = declared;
            this.request = request;
            this.store = store;
        }

        void record(OperatorNote note) {
            if (id != null) {
                throw new IllegalStateException("@Audited action " + declared.action() + " asked for twice");
            }
            String actor = signedIn().orElseGet(() -> Caller.of(request).actor());
            id = store.record(actor, declared.action(), target(), note.reason());
        }

        @SuppressWarnings("unchecked")
        private String target() {
            Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
            Map<String, String> path = variables instanceof Map<?, ?> map ? (Map<String, String>) map : Map.of();
            Matcher placeholder = PLACEHOLDER.matcher(declared.target());
            StringBuilder target = new StringBuilder();
            while (placeholder.find()) {
                String name = placeholder.group(1);
                String value = path.containsKey(name) ? path.get(name) : request.getHeader(name);
                if (value == null) {
                    throw new IllegalStateException("@Audited target " + declared.target() + ": no " + name);
                }
                placeholder.appendReplacement(target, Matcher.quoteReplacement(value));
            }
            return placeholder.appendTail(target).toString();
        }
    }
}
