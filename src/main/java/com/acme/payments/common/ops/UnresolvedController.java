package com.acme.payments.common.ops;

import java.util.Comparator;
import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.security.Allow;
import com.acme.payments.common.security.Allow.Role;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code GET /api/admin/unresolved}: every checkout attempt, refund attempt and capture/void operation
 * that is IN_FLIGHT or UNKNOWN, oldest first — the list an operator works through (docs/exits.md).
 */
@RestController
@Tag(name = "Operations")
class UnresolvedController {

    /** Per kind; the list is a work queue, not an export. */
    private static final int LIMIT = 1000;

    private final List<UnresolvedSource> sources;

    UnresolvedController(List<UnresolvedSource> sources) {
        this.sources = sources;
    }

    @GetMapping("/api/admin/unresolved")
    @Allow(Role.ADMIN)
    @Operation(operationId = "listUnresolved",
            summary = "Every IN_FLIGHT or UNKNOWN checkout attempt, refund and capture/void, oldest first")
    List<Unresolved> unresolved() {
        return sources.stream().flatMap(source -> source.unresolved(LIMIT).stream())
                .sorted(Comparator.comparing(Unresolved::since).thenComparing(Unresolved::referenceId))
                .toList();
    }
}
