package com.acme.payments.order;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.Problems.FieldProblem;

/**
 * The order list's query parameters, checked: every invalid one is named in one 400, before any read. An
 * absent parameter is null; an empty one is invalid (it names nothing).
 */
record OrderListQuery(OrderListStore.OrderFilter filter, int limit, String startingAfter) {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    static OrderListQuery parse(String status, String createdFrom, String createdTo, String limit,
            String startingAfter) {
        List<FieldProblem> errors = new ArrayList<>();
        OrderStatus parsedStatus = status == null ? null : status(status, errors);
        OffsetDateTime from = createdFrom == null ? null : instant("createdFrom", createdFrom, errors);
        OffsetDateTime to = createdTo == null ? null : instant("createdTo", createdTo, errors);
        if (from != null && to != null && to.isBefore(from)) {
            errors.add(new FieldProblem("createdTo", "must not be before createdFrom"));
        }
        int parsedLimit = limit == null ? DEFAULT_LIMIT : limit(limit, errors);
        if (startingAfter != null && !OrderRefs.isWellFormed(startingAfter)) {
            errors.add(new FieldProblem("startingAfter", "must be the orderRef of an order"));
        }
        if (!errors.isEmpty()) {
            throw new Problems.ValidationFailed(errors);
        }
        return new OrderListQuery(new OrderListStore.OrderFilter(parsedStatus, from, to), parsedLimit, startingAfter);
    }

    private static OrderStatus status(String status, List<FieldProblem> errors) {
        for (OrderStatus known : OrderStatus.values()) {
            if (known.name().equals(status)) {
                return known;
            }
        }
        errors.add(new FieldProblem("status", "must be one of " + names()));
        return null;
    }

    private static String names() {
        StringBuilder names = new StringBuilder();
        for (OrderStatus known : OrderStatus.values()) {
            names.append(names.isEmpty() ? "" : ", ").append(known.name());
        }
        return names.toString();
    }

    /** RFC 3339 with its offset; years 1 to 9999 only, so PostgreSQL's range is never the one to refuse it. */
    private static OffsetDateTime instant(String field, String text, List<FieldProblem> errors) {
        try {
            OffsetDateTime parsed = OffsetDateTime.parse(text);
            if (parsed.getYear() >= 1 && parsed.getYear() <= 9999) {
                return parsed;
            }
        } catch (DateTimeParseException e) {
            // reported below
        }
        errors.add(new FieldProblem(field, "must be an RFC 3339 date-time with an offset, e.g. 2026-01-31T00:00:00Z"));
        return null;
    }

    private static int limit(String text, List<FieldProblem> errors) {
        try {
            int parsed = Integer.parseInt(text);
            if (parsed >= 1 && parsed <= MAX_LIMIT) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        errors.add(new FieldProblem("limit", "must be a whole number from 1 to " + MAX_LIMIT));
        return DEFAULT_LIMIT;
    }
}
