package com.acme.pspsim;

import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import org.springframework.stereotype.Component;

/**
 * The simulator's payments, in memory and thread-safe. Every created payment is kept, so
 * {@link #createCounts()} tells how many payments each {@code referenceId} produced (the provider
 * does not deduplicate them).
 */
@Component
class PaymentBook {

    private final Map<String, Payment> byId = new ConcurrentHashMap<>();
    /** Every payment id by creation time, for the books' listing (a page is a range, not a sort of all). */
    private final java.util.concurrent.ConcurrentSkipListMap<Created, String> byCreated =
            new java.util.concurrent.ConcurrentSkipListMap<>();

    private record Created(Instant at, long seq) implements Comparable<Created> {

        @Override
        public int compareTo(Created other) {
            int byTime = at.compareTo(other.at);
            return byTime != 0 ? byTime : Long.compare(seq, other.seq);
        }
    }
    private final Map<String, List<String>> idsByReference = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();
    /** Every create POSTed, by {@code referenceId}: lost ones (nothing created) and refused ones included. */
    private final Map<String, Integer> createPosts = new ConcurrentHashMap<>();

    long nextSeq() {
        return sequence.incrementAndGet();
    }

    void add(Payment payment) {
        byId.put(payment.id(), payment);
        if (payment.createdAt() != null) {
            byCreated.put(new Created(payment.createdAt(), payment.seq()), payment.id());
        }
        idsByReference.computeIfAbsent(String.valueOf(payment.referenceId()), k -> new CopyOnWriteArrayList<>())
                .add(payment.id());
    }

    Optional<Payment> get(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The payments with this reference that a look-up may see at {@code now}, oldest first. */
    List<Payment> findByReference(String referenceId, Instant now) {
        return idsByReference.getOrDefault(referenceId, List.of()).stream()
                .map(byId::get)
                .filter(p -> p != null && p.visibleToLookupsAt(now))
                .sorted(Comparator.comparingLong(Payment::seq))
                .toList();
    }

    /** Every payment created in {@code [from, to)}, oldest first (the books' listing). */
    List<Payment> createdIn(Instant from, Instant to, long skip, int limit) {
        return byCreated.subMap(new Created(from, Long.MIN_VALUE), true, new Created(to, Long.MIN_VALUE), false)
                .values().stream().map(byId::get).filter(p -> p != null).skip(skip).limit(limit).toList();
    }

    /** Whether a payment created in the window comes after the first {@code skip}. */
    boolean createdAfter(Instant from, Instant to, long skip) {
        return byCreated.subMap(new Created(from, Long.MIN_VALUE), true, new Created(to, Long.MIN_VALUE), false)
                .values().stream().filter(byId::containsKey).skip(skip).findAny().isPresent();
    }

    /** The provider loses a payment: it is neither listed nor found any more. */
    boolean forget(String id) {
        return byId.remove(id) != null;
    }

    /** Every payment referring to {@code parentId} (refunds of a deposit). */
    List<Payment> children(String parentId) {
        return byId.values().stream().filter(p -> parentId.equals(p.parentPaymentId())).toList();
    }

    /**
     * Applies {@code change} atomically when the payment is in {@code expectedState}; empty when it is
     * not (or unknown), so concurrent clicks or captures move a payment at most once.
     */
    Optional<Payment> transition(String id, String expectedState, UnaryOperator<Payment> change) {
        Payment[] moved = new Payment[1];
        byId.computeIfPresent(id, (k, current) -> {
            if (!expectedState.equals(current.state())) {
                return current;
            }
            moved[0] = change.apply(current);
            return moved[0];
        });
        return Optional.ofNullable(moved[0]);
    }

    void replace(Payment payment) {
        byId.put(payment.id(), payment);
    }

    List<Payment> all() {
        return byId.values().stream().sorted(Comparator.comparingLong(Payment::seq)).toList();
    }

    /** Counts a create POSTed with {@code referenceId}; answers how many came before it (0: the first). */
    int notePost(String referenceId) {
        return createPosts.merge(String.valueOf(referenceId), 1, Integer::sum) - 1;
    }

    /** How many creates were POSTed with each referenceId, whatever became of them. */
    Map<String, Integer> createPosts() {
        return Map.copyOf(createPosts);
    }

    /** How many payments each referenceId created, in order of first creation. */
    Map<String, Integer> createCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        all().forEach(p -> counts.merge(String.valueOf(p.referenceId()), 1, Integer::sum));
        return counts;
    }

    void clear() {
        byId.clear();
        byCreated.clear();
        idsByReference.clear();
        createPosts.clear();
    }
}
