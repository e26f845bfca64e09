package com.acme.payments.operator;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;
import com.acme.payments.sweep.Sweeps;
import com.acme.payments.sweep.Unresolved;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code GET /api/admin/unresolved}: every checkout attempt, refund attempt and capture/void operation
 * that is IN_FLIGHT or UNKNOWN, oldest first — the list an operator works through (docs/runbook.md, "Exits"). Each
 * swept table contributes its rows through {@link Sweeps}.
 */
@RestController
@Tag(name = "Operations")
class UnresolvedController {

    /** Per kind; the list is a work queue, not an export. */
    private static final int LIMIT = 1000;

    private final Sweeps sweeps;

    UnresolvedController(Sweeps sweeps) {
        this.sweeps = sweeps;
    }

    @GetMapping("/api/admin/unresolved")
    @Allow(scopes = Scope.OPERATOR)
    @Operation(operationId = "listUnresolved",
            summary = "Every IN_FLIGHT or UNKNOWN checkout attempt, refund and capture/void, oldest first")
    List<Unresolved> unresolved() {
        return sweeps.unresolved(LIMIT);
    }
}
