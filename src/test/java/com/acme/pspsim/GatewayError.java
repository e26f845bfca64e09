package com.acme.pspsim;

import org.springframework.http.HttpStatus;

/** A confirmed refusal: the simulator answers 4xx with {@code errorCode}/{@code errorMessage}; nothing changed. */
final class GatewayError extends RuntimeException {

    private final HttpStatus status;
    private final String errorCode;

    GatewayError(HttpStatus status, String errorCode, String message) {
        super(message, null, false, false);
        this.status = status;
        this.errorCode = errorCode;
    }

    static GatewayError invalid(String message) {
        return new GatewayError(HttpStatus.BAD_REQUEST, "INVALID_REQUEST", message);
    }

    static GatewayError notFound(String id) {
        return new GatewayError(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND", "no payment " + id);
    }

    HttpStatus status() {
        return status;
    }

    String errorCode() {
        return errorCode;
    }
}
