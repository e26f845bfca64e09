package com.acme.payments.outbox;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Caller;
import com.acme.payments.common.web.PathLookup;
import com.acme.payments.common.web.PlainText;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * Operators' outbox endpoints (admin key): {@code GET /api/admin/outbox?state=dead} lists rows,
 * {@code POST /api/admin/outbox/{id}/redrive} puts a dead row back in line, {@code POST
 * /api/admin/outbox/redrive} puts every matching dead row back, {@code POST /api/admin/outbox/{id}/discard}
 * settles a dead row unsent so its stream goes on, {@code POST /api/admin/outbox/{id}/resend} has a delivered
 * row sent once more (same key, same body).
 */
@RestController
@Allow(scopes = Scope.OPERATOR)
@Tag(name = "Operations")
class OutboxAdminController {

    private static final Logger log = LoggerFactory.getLogger(OutboxAdminController.class);

    private static final Set<String> STATES = Set.of("pending", "dead", "delivered", "discarded");
    private static final int MAX_LIMIT = 500;

    private final OutboxAdminStore store;
    private final DeadEffects effects;

    OutboxAdminController(OutboxAdminStore store, DeadEffects effects) {
        this.store = store;
        this.effects = effects;
    }

    @GetMapping("/api/admin/outbox")
    @Operation(operationId = "listOutboxRows",
            summary = "List outbox rows by state (pending, dead, delivered, discarded)")
    @ApiResponse(responseCode = "200", description = "Ordered by id; page with afterId")
    @ProblemAnswers(ProblemType.VALIDATION_FAILED)
    List<OutboxRow> list(@RequestParam(defaultValue = "dead") String state,
            @RequestParam(defaultValue = "0") String afterId, @RequestParam(defaultValue = "100") String limit) {
        if (!STATES.contains(state)) {
            throw Problems.ValidationFailed.of("state", "must be one of pending, dead, delivered, discarded");
        }
        long after = parse(afterId, "afterId", 0, Long.MAX_VALUE);
        int max = (int) parse(limit, "limit", 1, MAX_LIMIT);
        return store.list(state, after, max).stream().map(OutboxRow::of).toList();
    }

    @PostMapping("/api/admin/outbox/{id}/redrive")
    @Audited(action = "redrive", target = "outbox:{id}")
    @Operation(operationId = "redriveOutboxRow", summary = "Put a dead outbox row back in line")
    @ApiResponse(responseCode = "200", description = "The row, pending again")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.OUTBOX_ROW_NOT_DEAD })
    OutboxRow redrive(@PathVariable String id) {
        long rowId = DeadEffects.rowId(id);
        OperatorNote.NONE.asked();
        effects.redrive(rowId);
        return answer(rowId);
    }

    @PostMapping("/api/admin/outbox/{id}/discard")
    @Audited(action = "discard", target = "outbox:{id}")
    @Operation(operationId = "discardOutboxRow",
            summary = "Settle a dead outbox row without sending it, so the effects behind it in its stream go on")
    @ApiResponse(responseCode = "200", description = "The row, discarded (who, why and when on the row)")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST,
            ProblemType.OUTBOX_ROW_NOT_DEAD })
    OutboxRow discard(Caller caller, @IdParameter OutboxAdminStore.Row row,
            @RequestBody @Valid DiscardRequest request) {
        new OperatorNote(request.reason()).asked();
        effects.discard(row.id(), caller.actor(), request.reason());
        return answer(row.id());
    }

    @PostMapping("/api/admin/outbox/{id}/resend")
    @Audited(action = "resend", target = "outbox:{id}")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(operationId = "resendOutboxRow",
            summary = "Send a delivered outbox row once more, with its original Idempotency-Key and body")
    @ApiResponse(responseCode = "202", description = "The row, pending again; the relay sends it")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.OUTBOX_ROW_NOT_SENT })
    OutboxRow resend(Caller caller, @IdParameter OutboxAdminStore.Row row) {
        OperatorNote.NONE.asked();
        effects.resend(row.id());
        log.info("outbox row {} ({}) resent by {}", row.id(), row.idempotencyKey(), caller.actor());
        return answer(row.id());
    }

    @PostMapping("/api/admin/outbox/redrive")
    @Audited(action = "redrive", target = "outbox:dead")
    @Operation(operationId = "redriveMatchingOutboxRows",
            summary = "Put every matching dead outbox row back in line (by sink, kind, dead since)")
    @ApiResponse(responseCode = "200", description = "How many dead rows are pending again")
    @ProblemAnswers({ ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST })
    Redriven redriveMatching(Caller caller,
            @RequestBody(required = false) @Valid RedriveRequest body) {
        RedriveRequest request = body == null ? new RedriveRequest(null, null, null) : body;
        OutboxStore.DeadFilter filter = request.filter();
        new OperatorNote(request.describe()).asked();
        int redriven = effects.redriveMatching(filter);
        log.info("outbox bulk redrive by {} ({}): {} dead rows pending again", caller.actor(), request.describe(),
                redriven);
        return new Redriven(redriven);
    }

    private OutboxRow answer(long rowId) {
        return store.find(rowId).map(OutboxRow::of).orElseThrow(() -> new Problems.NotFound("Outbox row"));
    }

    /** The outbox row an operator's path names ({@code {id}}), found before the body is read, or 404. */
    @Component
    static class ById extends PathLookup<OutboxAdminStore.Row> {

        private final OutboxAdminStore store;

        ById(OutboxAdminStore store) {
            super(OutboxAdminStore.Row.class, "id", "Outbox row");
            this.store = store;
        }

        @Override
        protected Optional<OutboxAdminStore.Row> find(String id) {
            return store.find(DeadEffects.rowId(id));
        }
    }

    /** The {@code {id}} path variable a {@link ById} row comes from, for the OpenAPI description. */
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = "string"))
    @interface IdParameter {
    }

    /** Why the row is given up; kept on the row and in the audit trail. */
    record DiscardRequest(@NotBlank @Size(max = 500) @PlainText String reason) {
    }

    /** Which dead rows to re-drive; every field optional, all given ones must match. */
    record RedriveRequest(@Schema(allowableValues = { "notify", "conversion", "fulfilment", "shop-events" }) String sink,
            @Size(max = 100) @PlainText String kind,
            @Schema(format = "date-time", description = "RFC 3339: rows dead since then") String deadSince) {

        OutboxStore.DeadFilter filter() {
            return DeadEffects.filter(sink, kind, deadSince);
        }

        String describe() {
            return "sink=" + (sink == null ? "any" : sink) + " kind=" + (kind == null ? "any" : kind)
                    + " deadSince=" + (deadSince == null ? "any" : deadSince);
        }
    }

    /** How many dead rows a bulk redrive put back in line. */
    record Redriven(int redriven) {
    }

    /** One outbox row as operators see it (the payload stays in the table). */
    record OutboxRow(long id, String kind, String aggregateType, String aggregateId, String idempotencyKey,
            String state, String settledAs, int attempts, String lastError, Instant createdAt, Instant nextAttemptAt,
            Instant deliveredAt, Instant redrivenAt, Instant deadAt, Instant discardedAt, String discardedBy,
            String discardReason, Instant firstFailedAt, Instant resentAt) {

        static OutboxRow of(OutboxAdminStore.Row row) {
            return new OutboxRow(row.id(), row.kind(), row.aggregateType(), row.aggregateId(), row.idempotencyKey(),
                    row.state(), row.settledAs(), row.attempts(), row.lastError(), row.createdAt(),
                    row.nextAttemptAt(), row.deliveredAt(), row.redrivenAt(), row.deadAt(), row.discardedAt(),
                    row.discardedBy(), row.discardReason(), row.firstFailedAt(), row.resentAt());
        }
    }

    private static long parse(String value, String field, long min, long max) {
        try {
            long parsed = Long.parseLong(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw Problems.ValidationFailed.of(field, "must be a whole number from " + min + " to " + max);
    }
}
