package com.acme.payments.operator;

import java.util.Locale;

/** What became of an operator action, read from the answer the operator got. */
enum Outcome {
    /** 2xx (and 3xx): done. */
    DONE,
    /** 4xx: refused (not found, not in a state that allows it, invalid), nothing was done. */
    REFUSED,
    /** 4xx with {@code Retry-After} (e.g. {@code refund-outcome-unknown}): asked of the PSP, its answer lost. */
    UNKNOWN,
    /** 5xx or an exception no handler answered: it may or may not have happened; read the resource. */
    FAILED;

    static Outcome of(int status, boolean retryAfter) {
        if (status >= 500) {
            return FAILED;
        }
        if (status >= 400) {
            return retryAfter ? UNKNOWN : REFUSED;
        }
        return DONE;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
