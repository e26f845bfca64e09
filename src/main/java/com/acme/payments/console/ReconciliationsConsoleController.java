package com.acme.payments.console;

import java.security.Principal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.UUID;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import com.acme.payments.books.Reconciliations;
import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.Public;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * Reconciliation runs: the newest listed, one read with its mismatches, and one started over a window through
 * {@link Reconciliations} as {@code POST /api/admin/reconciliations} does (its window rules, its audit), the
 * window's ends given in UTC.
 */
@Controller
@Hidden
@Public("a page for people: ConsoleSecurity's chain and its session decide, not a bearer key")
class ReconciliationsConsoleController {

    private final Reconciliations reconciliations;

    ReconciliationsConsoleController(Reconciliations reconciliations) {
        this.reconciliations = reconciliations;
    }

    @GetMapping("/console/reconciliations")
    String list(Model model) {
        model.addAttribute("runs", reconciliations.newest());
        return "console/reconciliations";
    }

    @GetMapping("/console/reconciliations/{id}")
    String run(@PathVariable String id, Model model) {
        model.addAttribute("run", reconciliations.find(id));
        return "console/reconciliation";
    }

    @PostMapping("/console/reconciliations")
    @Audited(action = "reconcile", target = "reconciliations")
    String start(@Valid WindowForm form, Principal signedIn, RedirectAttributes flash) {
        Instant from = utc("from", form.from());
        Instant to = utc("to", form.to());
        reconciliations.checkWindow(from, to);
        OperatorNote.NONE.asked();
        UUID id = reconciliations.start(from, to, signedIn.getName());
        flash.addFlashAttribute("done", "Reconciliation run started in the background; this page shows it as it goes.");
        return "redirect:/console/reconciliations/" + id;
    }

    /**
     * An end of the window: an RFC 3339 date-time, or one without an offset (what a date-time field sends) read
     * as UTC, or a date (its midnight, UTC).
     */
    static Instant utc(String field, String text) {
        String value = text.strip();
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException notWithOffset) {
            // read on as the forms' shapes below
        }
        try {
            return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notLocal) {
            // read on as a date
        }
        try {
            return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException notADate) {
            throw Problems.ValidationFailed.of(field, "must be a UTC date-time (2026-01-01T00:00) or a date");
        }
    }

    /** The window {@code [from, to)} to hold against the PSP's books. */
    record WindowForm(@NotBlank @Size(max = 64) String from, @NotBlank @Size(max = 64) String to) {
    }
}
