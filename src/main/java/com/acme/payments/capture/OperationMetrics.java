package com.acme.payments.capture;

import java.util.Locale;

import org.springframework.stereotype.Component;

import com.acme.payments.sweep.DatabaseGauges;

import io.micrometer.core.instrument.Tags;

/**
 * {@code payments.operations.unknown{kind=capture|void}} and its {@code .oldest.age}: capture and void
 * calls whose outcome the PSP left ambiguous. The operation sweep resolves them; one that stays UNKNOWN
 * holds its order (no other capture or void) and is the {@code OperationUnknownTooLong} alert.
 */
@Component
class OperationMetrics {

    OperationMetrics(OperationStore operations, DatabaseGauges gauges) {
        for (Operation.Kind kind : Operation.Kind.values()) {
            String tag = kind.name().toLowerCase(Locale.ROOT);
            gauges.registerOpen("payments.operations.unknown", Tags.of("kind", tag),
                    "Capture/void operations whose outcome is UNKNOWN",
                    "Age of the oldest UNKNOWN capture/void operation", () -> operations.unknownRows(kind));
        }
    }
}
