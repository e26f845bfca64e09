package com.acme.payments.psp;

import java.util.Locale;

/** The answer to the PSP for one webhook delivery: {@code {"status": "<value>"}}. */
public enum WebhookOutcome {
    APPLIED, DUPLICATE, IGNORED, UNKNOWN_PAYMENT, DUPLICATE_CHARGE;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
