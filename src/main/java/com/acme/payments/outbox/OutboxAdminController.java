package com.acme.payments.outbox;

import java.util.List;
import java.util.Set;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.security.Allow;
import com.acme.payments.common.security.Allow.Role;
import com.acme.payments.common.security.Caller;
import com.acme.payments.common.web.Problems;

/**
 * Operators' outbox endpoints (admin key): {@code GET /api/admin/outbox?state=dead} lists rows,
 * {@code POST /api/admin/outbox/{id}/redrive} puts a dead row back in line.
 */
@RestController
@Allow(Role.ADMIN)
class OutboxAdminController {

    private static final Set<String> STATES = Set.of("pending", "dead", "delivered");
    private static final int MAX_LIMIT = 500;

    private final OutboxAdminStore store;
    private final OutboxMetrics metrics;

    private final com.acme.payments.common.audit.OperatorActionStore actions;

    OutboxAdminController(OutboxAdminStore store, OutboxMetrics metrics,
            com.acme.payments.common.audit.OperatorActionStore actions) {
        this.actions = actions;
        this.store = store;
        this.metrics = metrics;
    }

    @GetMapping("/api/admin/outbox")
    List<OutboxAdminStore.Row> list(Caller caller, @RequestParam(defaultValue = "dead") String state,
            @RequestParam(defaultValue = "0") String afterId, @RequestParam(defaultValue = "100") String limit) {
        caller.requireAdmin();
        if (!STATES.contains(state)) {
            throw Problems.ValidationFailed.of("state", "must be one of pending, dead, delivered");
        }
        long after = parse(afterId, "afterId", 0, Long.MAX_VALUE);
        int max = (int) parse(limit, "limit", 1, MAX_LIMIT);
        return store.list(state, after, max);
    }

    @PostMapping("/api/admin/outbox/{id}/redrive")
    OutboxAdminStore.Row redrive(Caller caller, @PathVariable String id) {
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
        return store.find(rowId).orElseThrow(() -> new Problems.NotFound("Outbox row"));
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
