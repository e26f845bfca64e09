package com.acme.payments.common.web;

import java.time.Duration;
import java.util.List;

import org.springframework.http.HttpStatus;

/** Problems every feature can raise: authentication, authorisation, lookup and validation. */
public final class Problems {

    private Problems() {
    }

    public static final class Unauthenticated extends ApiProblem {
        public Unauthenticated() {
            super(HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized",
                    "A valid credential is required: Authorization: Bearer <key>.");
        }
    }

    public static final class Forbidden extends ApiProblem {
        public Forbidden() {
            super(HttpStatus.FORBIDDEN, "forbidden", "Forbidden",
                    "This credential may not act on this resource.");
        }
    }

    public static final class NotFound extends ApiProblem {
        public NotFound(String what) {
            super(HttpStatus.NOT_FOUND, "not-found", "Not found", what + " was not found.");
        }
    }

    public static final class ValidationFailed extends ApiProblem {
        public ValidationFailed(List<FieldProblem> errors) {
            super(HttpStatus.BAD_REQUEST, "validation-failed", "Invalid request",
                    "The request has invalid or missing fields.");
            with("errors", List.copyOf(errors));
        }

        public static ValidationFailed of(String field, String message) {
            return new ValidationFailed(List.of(new FieldProblem(field, message)));
        }
    }

    public static final class MalformedBody extends ApiProblem {
        public MalformedBody(String detail) {
            super(HttpStatus.BAD_REQUEST, "malformed-request", "Malformed request", detail);
        }
    }

    /** A generic "try again shortly" for contention that is not a business answer. */
    public static final class Busy extends ApiProblem {
        public Busy(String detail) {
            super(HttpStatus.SERVICE_UNAVAILABLE, "service-busy", "Service busy", detail);
            retryAfter(Duration.ofSeconds(1));
        }
    }

    public record FieldProblem(String field, String message) {
    }
}
