package com.acme.payments.books;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** A window to reconcile: RFC 3339 instants, {@code from} inclusive, {@code to} exclusive, at most 31 days. */
record ReconciliationRequest(
        @Schema(description = "RFC 3339, inclusive", example = "2026-11-01T00:00:00Z") @NotBlank @Size(max = 64) String from,
        @Schema(description = "RFC 3339, exclusive", example = "2026-11-02T00:00:00Z") @NotBlank @Size(max = 64) String to) {
}
