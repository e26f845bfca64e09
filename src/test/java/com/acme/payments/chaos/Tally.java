package com.acme.payments.chaos;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Thread-safe named counters for the summary (workload actions, faults injected by kind). */
final class Tally {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    void add(String name) {
        counts.computeIfAbsent(name, k -> new LongAdder()).increment();
    }

    long get(String name) {
        LongAdder adder = counts.get(name);
        return adder == null ? 0 : adder.sum();
    }

    long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }
}
