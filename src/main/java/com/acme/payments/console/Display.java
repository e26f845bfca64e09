package com.acme.payments.console;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;

/**
 * How the pages show values (the templates call it as {@code show}): money always with its currency, times in
 * UTC, each state with the badge of its kind. Public for the templates' expression language only.
 */
public final class Display {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);
    private static final Set<String> GOOD = Set.of("PAID", "DONE", "COMPLETED", "CAPTURED", "delivered", "SUCCEEDED",
            "AUTHORIZED", "READY", "done");
    private static final Set<String> BAD = Set.of("UNKNOWN", "FAILED", "DECLINED", "CANCELLED", "dead", "DETECTED",
            "PAYMENT_FAILED", "failed");

    public String time(Instant instant) {
        return instant == null ? "—" : UTC.format(instant);
    }

    public String time(String instant) {
        return instant == null ? "—" : time(Instant.parse(instant));
    }

    public String money(BigDecimal amount, String currency) {
        return amount == null ? "—" : amount.toPlainString() + " " + currency;
    }

    public String money(String amount, String currency) {
        return amount == null ? "—" : amount + " " + currency;
    }

    /** The badge's CSS class: good (settled as hoped), bad (needs a person or failed), open (in between). */
    public String badge(String state) {
        if (state == null) {
            return "badge";
        }
        return GOOD.contains(state) ? "badge badge-good" : BAD.contains(state) ? "badge badge-bad" : "badge badge-open";
    }

    public String text(String value) {
        return value == null || value.isEmpty() ? "—" : value;
    }
}
