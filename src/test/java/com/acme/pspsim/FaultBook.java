package com.acme.pspsim;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.stereotype.Component;

/**
 * The fault rules in force: those configured for the run, plus those posted to {@code /sim/faults}.
 * A call is matched against the rules in the order they were added; the first match with a use
 * left applies (one use consumed) and the others wait, so rules can script a sequence ("a 500,
 * then a reset, then normal"). A rule with {@code times} is dropped once spent.
 */
@Component
class FaultBook {

    private final List<Active> rules = new CopyOnWriteArrayList<>();
    private final List<FaultRule> configured;

    FaultBook(SimulatorProperties properties) {
        this.configured = properties.faults();
        reset();
    }

    void add(List<FaultRule> more) {
        more.forEach(r -> rules.add(new Active(r)));
    }

    void clear() {
        rules.clear();
    }

    /** Back to the rules configured for the run. */
    void reset() {
        rules.clear();
        add(configured);
    }

    /** The first rule matching this call that has a use left (consuming it), else null. */
    FaultRule take(String op, String referenceId, String paymentType, BigDecimal amount, boolean replay) {
        for (Active active : rules) {
            if (active.rule.matches(op, referenceId, paymentType, amount, replay) && active.use()) {
                rules.removeIf(Active::spent);
                return active.rule;
            }
        }
        return null;
    }

    /** The Stripe surface's take: the first rule matching one of the call's (or event's) subjects. */
    FaultRule takeStripe(String op, java.util.Collection<String> subjects, BigDecimal amount, String eventType) {
        return takeStripe(op, subjects, amount, eventType, false);
    }

    /** {@link #takeStripe}, for a POST that may be a create sent again ({@code replay}). */
    FaultRule takeStripe(String op, java.util.Collection<String> subjects, BigDecimal amount, String eventType,
            boolean replay) {
        for (Active active : rules) {
            if (active.rule.matchesStripe(op, subjects, amount, eventType, replay) && active.use()) {
                rules.removeIf(Active::spent);
                return active.rule;
            }
        }
        return null;
    }

    CallPlan plan(String op, Payment payment) {
        return payment == null ? plan(op, null, null, null)
                : plan(op, payment.referenceId(), payment.paymentType(), payment.amount());
    }

    CallPlan plan(String op, String referenceId, String paymentType, BigDecimal amount) {
        return plan(op, referenceId, paymentType, amount, false);
    }

    /** {@link #plan}, for a create that may be one sent again ({@code replay}). */
    CallPlan plan(String op, String referenceId, String paymentType, BigDecimal amount, boolean replay) {
        return new CallPlan(take(op, referenceId, paymentType, amount, replay));
    }

    /** The rules with what is left of them, for {@code GET /sim/faults}. */
    List<Map<String, Object>> describe() {
        return rules.stream().map(a -> {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("rule", a.rule);
            m.put("remaining", a.remaining == null ? "unlimited" : a.remaining.get());
            return m;
        }).toList();
    }

    private static final class Active {
        final FaultRule rule;
        final AtomicInteger remaining;

        Active(FaultRule rule) {
            this.rule = rule;
            this.remaining = rule.times() == null ? null : new AtomicInteger(rule.times());
        }

        boolean use() {
            return remaining == null || remaining.getAndUpdate(n -> n > 0 ? n - 1 : n) > 0;
        }

        boolean spent() {
            return remaining != null && remaining.get() <= 0;
        }
    }
}
