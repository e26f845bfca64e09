package com.acme.pspsim;

import java.util.List;
import java.util.Optional;

/** The faults that matched one call, sorted by when they act: before, during, or on the answer. */
record CallPlan(List<FaultRule> rules) {

    static final CallPlan NONE = new CallPlan(List.of());

    long latencyMs() {
        return rules.stream().filter(r -> r.kind() == Fault.LATENCY).mapToLong(r -> r.delayOr(0)).sum();
    }

    Optional<FaultRule> first(Fault kind) {
        return rules.stream().filter(r -> r.kind() == kind).findFirst();
    }

    boolean has(Fault kind) {
        return first(kind).isPresent();
    }

    /** The first rule that replaces the normal answer: TIMEOUT, ERROR_AFTER, HTML, TRUNCATED or RESET. */
    Optional<FaultRule> answerFault() {
        return rules.stream().filter(r -> switch (r.kind()) {
            case TIMEOUT, ERROR_AFTER, HTML, TRUNCATED, RESET -> true;
            default -> false;
        }).findFirst();
    }

    void sleepLatency() {
        Sleep.millis(latencyMs());
    }
}
