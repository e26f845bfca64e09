package com.acme.pspsim;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatus;

/**
 * A refusal in Stripe's shape, {@code {"error":{"type","message","code"?,"param"?}}}: nothing was done
 * (a validation failure is not stored under the request's Idempotency-Key, as at Stripe).
 */
final class StripeError extends RuntimeException {

    private final HttpStatus status;
    private final String type;
    private final String code;
    private final String param;

    StripeError(HttpStatus status, String type, String code, String param, String message) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.code = code;
        this.param = param;
    }

    static StripeError invalid(String param, String message) {
        return new StripeError(HttpStatus.BAD_REQUEST, "invalid_request_error", null, param, message);
    }

    static StripeError missing(String param) {
        return new StripeError(HttpStatus.BAD_REQUEST, "invalid_request_error", "parameter_missing", param,
                "Missing required param: " + param + ".");
    }

    static StripeError noSuch(String object, String param, String id) {
        return new StripeError(HttpStatus.NOT_FOUND, "invalid_request_error", "resource_missing", param,
                "No such " + object + ": '" + id + "'");
    }

    static StripeError unexpectedState(String message) {
        return new StripeError(HttpStatus.BAD_REQUEST, "invalid_request_error", "payment_intent_unexpected_state",
                null, message);
    }

    HttpStatus status() {
        return status;
    }

    String type() {
        return type;
    }

    Map<String, Object> body() {
        return body(type, code, param, getMessage());
    }

    static Map<String, Object> body(String type, String code, String param, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        if (code != null) {
            error.put("code", code);
        }
        error.put("message", message);
        if (param != null) {
            error.put("param", param);
        }
        error.put("type", type);
        return Map.of("error", error);
    }
}
