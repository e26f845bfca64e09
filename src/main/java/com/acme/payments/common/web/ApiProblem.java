package com.acme.payments.common.web;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatus;

/**
 * A domain outcome that the HTTP edge reports as an RFC 9457 problem. Subclasses are named as facts
 * ({@code RefundExceedsRemainder}) and name their {@link ProblemType} (slug, status, title); each adds
 * its own detail and properties.
 */
public abstract class ApiProblem extends RuntimeException {

    private final ProblemType type;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private Duration retryAfter;

    protected ApiProblem(ProblemType type, String detail) {
        super(detail, null, false, false); // a business answer, not a crash: no stack trace
        this.type = type;
    }

    protected ApiProblem retryAfter(Duration delay) {
        if (!type.retryAfter()) {
            throw new IllegalStateException(type + " is declared without Retry-After");
        }
        this.retryAfter = delay;
        return this;
    }

    protected ApiProblem with(String name, Object value) {
        if (value != null) {
            properties.put(name, value);
        }
        return this;
    }

    public ProblemType problemType() {
        return type;
    }

    public HttpStatus status() {
        return type.status();
    }

    public URI type() {
        return type.uri();
    }

    public String title() {
        return type.title();
    }

    public Map<String, Object> properties() {
        return properties;
    }

    public Duration retryAfterOrNull() {
        return retryAfter;
    }
}
