package com.acme.payments.common.web;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatus;

/**
 * A domain outcome that the HTTP edge reports as an RFC 9457 problem. Subclasses are named as facts
 * ({@code RefundExceedsRemainder}); the slug becomes the stable {@code type} URI.
 */
public abstract class ApiProblem extends RuntimeException {

    private final HttpStatus status;
    private final String slug;
    private final String title;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private Duration retryAfter;

    protected ApiProblem(HttpStatus status, String slug, String title, String detail) {
        super(detail, null, false, false); // a business answer, not a crash: no stack trace
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    protected ApiProblem retryAfter(Duration delay) {
        this.retryAfter = delay;
        return this;
    }

    protected ApiProblem with(String name, Object value) {
        if (value != null) {
            properties.put(name, value);
        }
        return this;
    }

    public HttpStatus status() {
        return status;
    }

    public String slug() {
        return slug;
    }

    public URI type() {
        return ProblemTypes.of(slug);
    }

    public String title() {
        return title;
    }

    public Map<String, Object> properties() {
        return properties;
    }

    public Duration retryAfterOrNull() {
        return retryAfter;
    }
}
