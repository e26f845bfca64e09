package com.acme.pspsim;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.stereotype.Component;

/**
 * The fault rules in force: those configured for the run, plus those posted to {@code /sim/faults}.
 * A rule with {@code times} is consumed one use per matching call and dropped when spent.
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

    /** Every rule matching this call, each consuming one use; in the order they were added. */
    List<FaultRule> take(String op, String referenceId, String paymentType, BigDecimal amount) {
        List<FaultRule> matched = new ArrayList<>();
        for (Active active : rules) {
            if (active.rule.matches(op, referenceId, paymentType, amount) && active.use()) {
                matched.add(active.rule);
            }
        }
        rules.removeIf(Active::spent);
        return matched;
    }

    CallPlan plan(String op, Payment payment) {
        return payment == null ? plan(op, null, null, null)
                : plan(op, payment.referenceId(), payment.paymentType(), payment.amount());
    }

    CallPlan plan(String op, String referenceId, String paymentType, BigDecimal amount) {
        return new CallPlan(take(op, referenceId, paymentType, amount));
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
