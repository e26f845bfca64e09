package com.acme.pspsim;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code corrupt-answer} fault: a look-up answer carrying a value no booking may take (a currency
 * {@code EURO}, a negative amount, an id over 255 characters). Only the answer is changed, never the
 * payment, so the next look-up without the rule shows the truth.
 */
final class AnswerCorruption {

    private AnswerCorruption() {
    }

    /** The view with the rule's field replaced, or the view itself when the plan does not corrupt. */
    static Map<String, Object> apply(CallPlan plan, Map<String, Object> view) {
        return plan.first(Fault.CORRUPT_ANSWER).map(rule -> corrupt(view, rule)).orElse(view);
    }

    private static Map<String, Object> corrupt(Map<String, Object> view, FaultRule rule) {
        Map<String, Object> copy = new LinkedHashMap<>(view);
        copy.put(rule.field(), typed(rule.value()));
        return copy;
    }

    /** A decimal stays a JSON number, as the PSP sends amounts; anything else is a string. */
    private static Object typed(String value) {
        try {
            return new BigDecimal(value.trim());
        } catch (NumberFormatException e) {
            return value;
        }
    }
}
