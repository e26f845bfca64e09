package com.acme.pspsim;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Renders refusals as the provider does: the status with {@code errorCode} and {@code errorMessage}. */
@RestControllerAdvice(basePackageClasses = GatewayErrorAdvice.class)
class GatewayErrorAdvice {

    private final Responder responder;

    GatewayErrorAdvice(Responder responder) {
        this.responder = responder;
    }

    @ExceptionHandler(GatewayError.class)
    ResponseEntity<byte[]> refused(GatewayError error) {
        return responder.error(error.status(), error.errorCode(), error.getMessage());
    }
}
