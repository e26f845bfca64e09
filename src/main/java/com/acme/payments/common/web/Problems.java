package com.acme.payments.common.web;

import java.time.Duration;
import java.util.List;


/** Problems every feature can raise: authentication, authorisation, lookup and validation. */
public final class Problems {

    private Problems() {
    }

    public static final class Unauthenticated extends ApiProblem {
        public Unauthenticated() {
            super(ProblemType.UNAUTHORIZED, "A valid credential is required: Authorization: Bearer <key>.");
        }
    }

    public static final class Forbidden extends ApiProblem {
        public Forbidden() {
            super(ProblemType.FORBIDDEN, "This credential may not act on this resource.");
        }
    }

    /** A valid key that holds none of the scopes the endpoint admits; the detail names them. */
    public static final class InsufficientScope extends ApiProblem {
        public InsufficientScope(java.util.Collection<Scope> needed) {
            super(ProblemType.INSUFFICIENT_SCOPE, "This key lacks the scope this endpoint needs: "
                    + needed.stream().map(Scope::wireName).collect(java.util.stream.Collectors.joining(" or ")) + ".");
            with("needed", needed.stream().map(Scope::wireName).toList());
        }
    }

    public static final class NotFound extends ApiProblem {
        public NotFound(String what) {
            super(ProblemType.NOT_FOUND, what + " was not found.");
        }
    }

    public static final class ValidationFailed extends ApiProblem {
        public ValidationFailed(List<FieldProblem> errors) {
            super(ProblemType.VALIDATION_FAILED, "The request has invalid or missing fields.");
            with("errors", List.copyOf(errors));
        }

        public static ValidationFailed of(String field, String message) {
            return new ValidationFailed(List.of(new FieldProblem(field, message)));
        }
    }

    public static final class MalformedBody extends ApiProblem {
        public MalformedBody(String detail) {
            super(ProblemType.MALFORMED_REQUEST, detail);
        }
    }

    /**
     * The deployment lacks a setting this request needs (the service's own state, not the caller's mistake):
     * raised once the request was checked, so a wrong request still gets its own answer.
     */
    public static final class NotConfigured extends ApiProblem {
        public NotConfigured(String setting) {
            super(ProblemType.NOT_CONFIGURED, "This deployment does not set " + setting + ", which this endpoint needs.");
            with("setting", setting);
        }
    }

    /** A generic "try again shortly" for contention that is not a business answer. */
    public static final class Busy extends ApiProblem {
        public Busy(String detail) {
            super(ProblemType.SERVICE_BUSY, detail);
            retryAfter(Duration.ofSeconds(1));
        }
    }

    public record FieldProblem(String field, String message) {
    }
}
