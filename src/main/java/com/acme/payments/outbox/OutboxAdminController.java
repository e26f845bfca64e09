package com.acme.payments.outbox;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.audit.OperatorAudit;
import com.acme.payments.common.security.Allow;
import com.acme.payments.common.security.Allow.Role;
import com.acme.payments.common.security.Caller;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Operators' outbox endpoints (admin key): {@code GET /api/admin/outbox?state=dead} lists rows,
 * {@code POST /api/admin/outbox/{id}/redrive} puts a dead row back in line.
 */
@RestController
@Allow(Role.ADMIN)
@Tag(name = "Operations")
class OutboxAdminController {

    private static final Set<String> STATES = Set.of("pending", "dead", "delivered");
    private static final int MAX_LIMIT = 500;

    private final OutboxAdminStore store;
    private final OutboxMetrics metrics;

    private final OperatorAudit actions;

    OutboxAdminController(OutboxAdminStore store, OutboxMetrics metrics,
            OperatorAudit actions) {
        this.actions = actions;
        this.store = store;
        this.metrics = metrics;
    }

    @GetMapping("/api/admin/outbox")
    @Operation(summary = "List outbox rows by state (pending, dead, delivered)")
    @ApiResponse(responseCode = "200", description = "Ordered by id; page with afterId")
    @ProblemAnswers(ProblemType.VALIDATION_FAILED)
    List<OutboxRow> list(Caller caller, @RequestParam(defaultValue = "dead") String state,
            @RequestParam(defaultValue = "0") String afterId, @RequestParam(defaultValue = "100") String limit) {
        caller.requireAdmin();
        if (!STATES.contains(state)) {
            throw Problems.ValidationFailed.of("state", "must be one of pending, dead, delivered");
        }
        long after = parse(afterId, "afterId", 0, Long.MAX_VALUE);
        int max = (int) parse(limit, "limit", 1, MAX_LIMIT);
        return store.list(state, after, max).stream().map(OutboxRow::of).toList();
    }

    @PostMapping("/api/admin/outbox/{id}/redrive")
    @Operation(summary = "Put a dead outbox row back in line")
    @ApiResponse(responseCode = "200", description = "The row, pending again")
    @ProblemAnswers({ ProblemType.NOT_FOUND, ProblemType.OUTBOX_ROW_NOT_DEAD })
    OutboxRow redrive(Caller caller, @PathVariable String id) {
        caller.requireAdmin();
        long rowId;
        try {
            rowId = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new Problems.NotFound("Outbox row");
        }
        actions.record(caller.actor(), "redrive", "outbox:" + rowId, null);
        OutboxAdminStore.Redrive result = store.redrive(rowId);
        if (result == OutboxAdminStore.Redrive.NOT_FOUND) {
            throw new Problems.NotFound("Outbox row");
        }
        if (result == OutboxAdminStore.Redrive.NOT_DEAD) {
            throw new OutboxRowNotDead(rowId);
        }
        metrics.refreshNow();
        return store.find(rowId).map(OutboxRow::of).orElseThrow(() -> new Problems.NotFound("Outbox row"));
    }

    /** One outbox row as operators see it (the payload stays in the table). */
    record OutboxRow(long id, String kind, String aggregateType, String aggregateId, String idempotencyKey,
            String state, String settledAs, int attempts, String lastError, Instant createdAt, Instant nextAttemptAt,
            Instant deliveredAt, Instant redrivenAt) {

        static OutboxRow of(OutboxAdminStore.Row row) {
            return new OutboxRow(row.id(), row.kind(), row.aggregateType(), row.aggregateId(), row.idempotencyKey(),
                    row.state(), row.settledAs(), row.attempts(), row.lastError(), row.createdAt(),
                    row.nextAttemptAt(), row.deliveredAt(), row.redrivenAt());
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
