package com.acme.payments.books;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Caller;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** Reconciliation runs: start one over a window, read one with its mismatches, list them (admin key). */
@RestController
@Tag(name = "Operations")
class BooksReconciliationController {

    private final Reconciliations reconciliations;

    BooksReconciliationController(Reconciliations reconciliations) {
        this.reconciliations = reconciliations;
    }

    @PostMapping("/api/admin/reconciliations")
    @Allow(scopes = Scope.OPERATOR)
    @Audited(action = "reconcile", target = "reconciliations")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(operationId = "startReconciliation",
            summary = "Hold the PSP's payments and refunds created in [from, to) against ours, in the background")
    @ApiResponse(responseCode = "202", description = "The run, running (the one already running for this window, if any)")
    @ProblemAnswers({ ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST })
    ReconciliationStarted start(Caller caller, @RequestBody @Valid ReconciliationRequest request) {
        Instant from = instant("from", request.from());
        Instant to = instant("to", request.to());
        reconciliations.checkWindow(from, to);
        OperatorNote.NONE.asked();
        return new ReconciliationStarted(reconciliations.start(from, to, caller.actor()).toString(), "running");
    }

    @GetMapping("/api/admin/reconciliations/{id}")
    @Allow(scopes = Scope.OPERATOR)
    @Operation(operationId = "getReconciliation", summary = "One reconciliation run with its mismatches")
    @ProblemAnswers({ ProblemType.NOT_FOUND })
    ReconciliationView get(@PathVariable String id) {
        return reconciliations.find(id);
    }

    @GetMapping("/api/admin/reconciliations")
    @Allow(scopes = Scope.OPERATOR)
    @Operation(operationId = "listReconciliations", summary = "The newest reconciliation runs (up to 100), newest first")
    List<ReconciliationSummary> list() {
        return reconciliations.newest();
    }

    /** An RFC 3339 instant: a date, a time and an offset ({@code Z} or {@code ±hh:mm}). */
    private static Instant instant(String field, String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException notRfc3339) {
            throw Problems.ValidationFailed.of(field, "must be an RFC 3339 date-time with an offset");
        }
    }
}
