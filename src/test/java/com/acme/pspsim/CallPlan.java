package com.acme.pspsim;

import java.util.Optional;
import java.util.Set;

/** The fault rule that matched one call (if any), asked about what it does before, during and on the answer. */
record CallPlan(FaultRule rule) {

    static final CallPlan NONE = new CallPlan(null);

    long latencyMs() {
        return has(Fault.LATENCY) ? rule.delayOr(0) : 0;
    }

    Optional<FaultRule> first(Fault kind) {
        return has(kind) ? Optional.of(rule) : Optional.empty();
    }

    boolean has(Fault kind) {
        return rule != null && rule.kinds().contains(kind);
    }

    /** The fault that replaces the normal answer: TIMEOUT, RESET, ERROR_AFTER, HTML or TRUNCATED, in that precedence. */
    Optional<Fault> answerFault() {
        if (rule == null) {
            return Optional.empty();
        }
        Set<Fault> kinds = rule.kinds();
        for (Fault f : new Fault[] { Fault.TIMEOUT, Fault.RESET, Fault.ERROR_AFTER, Fault.HTML, Fault.TRUNCATED }) {
            if (kinds.contains(f)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    void sleepLatency() {
        Sleep.millis(latencyMs());
    }
}
