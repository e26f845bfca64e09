package com.acme.payments.ledger;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.Problems.FieldProblem;

/**
 * The export's window {@code [from, to)}, checked: both bounds are required RFC 3339 instants with an offset,
 * {@code to} after {@code from}, at most {@link #MAX} apart; every invalid bound is named in one 400, before any
 * read. The ceiling is a year (a leap one included), what finance asks for at once; a longer history is several
 * files, so one request never keeps a database connection for an unbounded time.
 */
record LedgerWindow(OffsetDateTime from, OffsetDateTime to) {

    static final Duration MAX = Duration.ofDays(366);

    static LedgerWindow parse(String from, String to) {
        List<FieldProblem> errors = new ArrayList<>();
        OffsetDateTime start = instant("from", from, errors);
        OffsetDateTime end = instant("to", to, errors);
        if (start != null && end != null) {
            if (!end.isAfter(start)) {
                errors.add(new FieldProblem("to", "must be after from (from is inclusive, to exclusive)"));
            } else if (Duration.between(start, end).compareTo(MAX) > 0) {
                errors.add(new FieldProblem("to", "must be at most " + MAX.toDays() + " days after from"));
            }
        }
        if (!errors.isEmpty()) {
            throw new Problems.ValidationFailed(errors);
        }
        return new LedgerWindow(start, end);
    }

    /** RFC 3339 with its offset; years 1 to 9999 only, so PostgreSQL's range is never the one to refuse it. */
    private static OffsetDateTime instant(String field, String text, List<FieldProblem> errors) {
        if (text == null || text.isEmpty()) {
            errors.add(new FieldProblem(field, "is required: an RFC 3339 date-time with an offset, e.g. "
                    + "2026-01-01T00:00:00Z"));
            return null;
        }
        try {
            OffsetDateTime parsed = OffsetDateTime.parse(text);
            if (parsed.getYear() >= 1 && parsed.getYear() <= 9999) {
                return parsed;
            }
        } catch (DateTimeParseException e) {
            // reported below
        }
        errors.add(new FieldProblem(field, "must be an RFC 3339 date-time with an offset, e.g. 2026-01-01T00:00:00Z"));
        return null;
    }
}
