package com.acme.payments.psp;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** The answer to the PSP for one webhook delivery: {@code {"status": "<value>"}}. */
public enum WebhookOutcome {
    APPLIED, DUPLICATE, IGNORED, UNKNOWN_PAYMENT, DUPLICATE_CHARGE;

    @JsonValue
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
