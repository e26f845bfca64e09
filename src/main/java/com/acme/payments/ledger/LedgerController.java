package com.acme.payments.ledger;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Semaphore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code GET /api/admin/ledger.csv}: the money movements of a window as CSV, streamed from the database to the
 * answer as they are read. The window is checked before anything is written, so a bad one is a 400 problem; once
 * the first byte left, a failure can only cut the answer short (no complete file ends without its last line).
 * Each export holds a database connection while it runs, so an instance runs at most {@link #CONCURRENT} at once
 * (503 {@code service-busy} beyond, never a pool emptied by exports).
 */
@RestController
@Tag(name = "Operations")
class LedgerController {

    static final int CONCURRENT = 2;
    private static final Logger log = LoggerFactory.getLogger(LedgerController.class);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private final LedgerStore ledger;
    /** The exports running on this instance (package-private: a test holds the permits to see the 503). */
    final Semaphore exports = new Semaphore(CONCURRENT);

    LedgerController(LedgerStore ledger) {
        this.ledger = ledger;
    }

    @GetMapping("/api/admin/ledger.csv")
    @Allow(scopes = Scope.OPERATOR)
    @Operation(operationId = "exportLedger", summary = "The money movements of a window, as CSV",
            description = "One line per money movement that happened in [from, to), oldest first (then by kind, "
                    + "then by the record): `occurredAt,kind,orderRef,pspPaymentId,referenceId,amount,currency`, "
                    + "RFC 4180 with a header line. `kind`: `payment`, `duplicate_charge` (money in), `refund`, "
                    + "`external_refund`, `duplicate_refund` (money out), `refund_failed` (a DONE refund that "
                    + "failed later: its money came back; the line names that refund). `amount` is never "
                    + "negative: the kind gives the direction. Streamed: a year is never held in memory. A window "
                    + "spans at most 366 days; a missing, invalid or reversed bound is a 400 `validation-failed` "
                    + "naming it. Two exports at a time per instance, 503 `service-busy` beyond.")
    @ApiResponse(responseCode = "200", description = "The movements, as an attachment",
            content = @Content(mediaType = "text/csv", schema = @Schema(type = "string")))
    @ProblemAnswers({ ProblemType.VALIDATION_FAILED, ProblemType.SERVICE_BUSY })
    void export(
            @Parameter(description = "From this instant (RFC 3339, inclusive)", required = true,
                    schema = @Schema(type = "string", format = "date-time"))
            @RequestParam(required = false) String from,
            @Parameter(description = "Until this instant (RFC 3339, exclusive); at most 366 days after `from`",
                    required = true, schema = @Schema(type = "string", format = "date-time"))
            @RequestParam(required = false) String to,
            HttpServletResponse response) throws IOException {
        LedgerWindow window = LedgerWindow.parse(from, to);
        if (!exports.tryAcquire()) {
            throw new Problems.Busy("Another export runs on this instance; retry shortly.");
        }
        try {
            response.setContentType("text/csv; charset=UTF-8");
            response.setHeader(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"ledger-"
                    + FILE_TIME.format(window.from()) + "-" + FILE_TIME.format(window.to()) + ".csv\"");
            response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
            try (LedgerCsv csv = new LedgerCsv(new BufferedWriter(
                    new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8), 1 << 16))) {
                ledger.stream(window.from(), window.to(), csv::write);
            } catch (UncheckedIOException gone) {
                // the client went away mid-file; the read-only transaction has rolled back, nothing to undo
                log.info("ledger export cut short by the client: {}", gone.getCause().getClass().getSimpleName());
            }
        } finally {
            exports.release();
        }
    }
}
