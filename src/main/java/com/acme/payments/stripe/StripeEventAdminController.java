package com.acme.payments.stripe;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code GET /api/admin/stripe-events?state=faulted} (admin key): the Stripe events the idempotency store
 * holds in one state, newest first; above all the faulted ones, signed events whose values could not be
 * stored, which were answered 200 and applied nothing.
 */
@RestController
@Allow(scopes = Scope.OPERATOR)
@Tag(name = "Operations")
class StripeEventAdminController {

    private static final Set<String> STATES = Set.of("faulted", "processing", "completed");
    private static final int MAX_LIMIT = 500;

    private final ProcessedEventStore events;

    StripeEventAdminController(ProcessedEventStore events) {
        this.events = events;
    }

    @GetMapping("/api/admin/stripe-events")
    @Operation(operationId = "listStripeEvents",
            summary = "Stripe events by state (faulted, processing, completed), newest first",
            description = "faulted: signed events whose values cannot be stored (a NUL, an overlong id, a currency "
                    + "that is not ISO 4217); answered 200 so Stripe stops redelivering them, nothing applied. "
                    + "eventId is Stripe's id, or, when that cannot be stored, its first characters with NULs "
                    + "and unpaired surrogates escaped and a digest of the whole id.")
    @ApiResponse(responseCode = "200", description = "Newest first, at most limit (1-500, default 100)")
    @ProblemAnswers(ProblemType.VALIDATION_FAILED)
    List<StripeEventRow> list(@RequestParam(defaultValue = "faulted") String state,
            @RequestParam(defaultValue = "100") String limit) {
        if (!STATES.contains(state)) {
            throw Problems.ValidationFailed.of("state", "must be one of faulted, processing, completed");
        }
        return events.list(state, limit(limit)).stream().map(StripeEventRow::of).toList();
    }

    private static int limit(String limit) {
        try {
            int parsed = Integer.parseInt(limit);
            if (parsed >= 1 && parsed <= MAX_LIMIT) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw Problems.ValidationFailed.of("limit", "must be a whole number from 1 to " + MAX_LIMIT);
    }

    /** One event as operators see it; {@code reason} only on a faulted one. */
    record StripeEventRow(String eventId, String type, @Schema(allowableValues = { "faulted", "processing",
            "completed" }) String state, String reason, Instant receivedAt, Instant completedAt) {

        static StripeEventRow of(ProcessedEventStore.Recorded row) {
            return new StripeEventRow(row.id(), row.type(), row.state(), row.reason(), row.receivedAt(),
                    row.completedAt());
        }
    }
}
