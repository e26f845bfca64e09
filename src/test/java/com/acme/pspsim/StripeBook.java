package com.acme.pspsim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

import org.springframework.stereotype.Component;

/**
 * The simulated Stripe account's objects, in memory: Checkout Sessions, PaymentIntents (each with its
 * charge) and Refunds. One lock guards them all, so a move and the views it announces are one step;
 * callers use {@link #locked(Function)} for anything that reads and writes.
 */
@Component
class StripeBook {

    private final Map<String, StripeSession> sessions = new LinkedHashMap<>();
    private final Map<String, StripeIntent> intents = new LinkedHashMap<>();
    private final Map<String, StripeRefund> refunds = new LinkedHashMap<>();
    private long sequence;

    synchronized <T> T locked(Function<StripeBook, T> work) {
        return work.apply(this);
    }

    synchronized long nextSeq() {
        return ++sequence;
    }

    synchronized void add(StripeSession s) {
        sessions.put(s.id, s);
    }

    synchronized void add(StripeIntent i) {
        intents.put(i.id, i);
    }

    synchronized void add(StripeRefund r) {
        refunds.put(r.id, r);
    }

    synchronized Optional<StripeSession> session(String id) {
        return Optional.ofNullable(sessions.get(id));
    }

    synchronized Optional<StripeIntent> intent(String id) {
        return Optional.ofNullable(intents.get(id));
    }

    synchronized Optional<StripeRefund> refund(String id) {
        return Optional.ofNullable(refunds.get(id));
    }

    /** The sessions matching {@code filter}, newest first (Stripe's list order). */
    synchronized List<StripeSession> sessions(Predicate<StripeSession> filter) {
        return sessions.values().stream().filter(filter)
                .sorted(Comparator.comparingLong((StripeSession s) -> s.seq).reversed()).toList();
    }

    synchronized List<StripeRefund> refundsOf(String intentId) {
        return refunds.values().stream().filter(r -> r.paymentIntent.equals(intentId)).toList();
    }

    synchronized List<StripeRefund> refunds() {
        return new ArrayList<>(refunds.values());
    }

    synchronized List<StripeIntent> intents() {
        return new ArrayList<>(intents.values());
    }

    /** Stripe loses an object: it is neither listed nor found any more. */
    synchronized boolean forget(String id) {
        return intents.remove(id) != null | refunds.remove(id) != null;
    }

    synchronized void clear() {
        sessions.clear();
        intents.clear();
        refunds.clear();
    }
}
