package com.acme.payments.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The scenario kinds a run must have produced, judged from the workload's and the faults' tallies: a run in
 * which a kind never happened (no SIGKILL landed, no PSP fault was taken, no second-charge refund was started)
 * says nothing about it, however green its invariants are. A kind is a tally name prefix, or several
 * separated by {@code |} (any of them counts); a new scenario adds its kind to its surface's list
 * ({@link ChaosPsp#scenarioKinds}).
 */
final class ScenarioKinds {

    /** What every run does, whatever the surface. */
    static final List<String> COMMON = List.of("orders", "checkout.calls", "checkout.double-click", "hosted.",
            "return", "refund.keys", "refund.same-key-two-instances", "sigkill-instance", "restart-instance",
            "pg-connection-terminated", "psp.");
    /** What a run with a PostgreSQL server of its own adds: outages, and the service's answers during them. */
    static final List<String> OUTAGE = List.of("pg-server-stopped", "pg-outage: API 503 database-unavailable");

    private ScenarioKinds() {
    }

    static Invariants.Check check(List<String> kinds, Tally workload, Tally faults) {
        Invariants.Check check = new Invariants.Check("every scenario kind of this run happened", kinds.size());
        Map<String, Long> counts = new java.util.TreeMap<>(workload.snapshot());
        faults.snapshot().forEach((k, v) -> counts.merge(k, v, Long::sum));
        for (String kind : kinds) {
            long n = 0;
            for (String prefix : kind.split("\\|")) {
                n += counts.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(Map.Entry::getValue)
                        .sum();
            }
            check.check(n > 0, kind + " never happened");
        }
        return check;
    }

    static List<String> of(List<String> surface, boolean outage) {
        List<String> kinds = new ArrayList<>(COMMON);
        kinds.addAll(surface);
        if (outage) {
            kinds.addAll(OUTAGE);
        }
        return kinds;
    }
}
