package com.acme.payments.stripe;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;

/**
 * The test's hand inside a worker: per event id, an action at a chosen point (after the claim, inside
 * the transaction before or after the business writes, after the commit). Throwing
 * {@link SimulatedCrash} (an Error) is a worker dying: nothing releases its claim.
 */
public class ScriptedHook implements StripeProcessingHook {

    private final Map<String, IntConsumer> afterClaim = new ConcurrentHashMap<>();
    private final Map<String, IntConsumer> beforeWrites = new ConcurrentHashMap<>();
    private final Map<String, IntConsumer> afterWrites = new ConcurrentHashMap<>();
    private final Map<String, IntConsumer> afterCommit = new ConcurrentHashMap<>();

    public void afterClaim(String eventId, Runnable action) {
        afterClaim.put(eventId, attempt -> action.run());
    }

    public void beforeWrites(String eventId, IntConsumer action) {
        beforeWrites.put(eventId, action);
    }

    public void afterWrites(String eventId, IntConsumer action) {
        afterWrites.put(eventId, action);
    }

    public void afterCommit(String eventId, Runnable action) {
        afterCommit.put(eventId, attempt -> action.run());
    }

    public void clear(String eventId) {
        afterClaim.remove(eventId);
        beforeWrites.remove(eventId);
        afterWrites.remove(eventId);
        afterCommit.remove(eventId);
    }

    @Override
    public void afterClaim(StripeEvent event) {
        run(afterClaim, event, 0);
    }

    @Override
    public void beforeBusinessWrites(StripeEvent event, int attempt) {
        run(beforeWrites, event, attempt);
    }

    @Override
    public void afterBusinessWrites(StripeEvent event, int attempt) {
        run(afterWrites, event, attempt);
    }

    @Override
    public void afterCommit(StripeEvent event) {
        run(afterCommit, event, 0);
    }

    private static void run(Map<String, IntConsumer> actions, StripeEvent event, int attempt) {
        IntConsumer action = actions.get(event.id());
        if (action != null) {
            action.accept(attempt);
        }
    }

    /** A worker dying mid-way: an Error, so no catch block of the service runs its cleanup. */
    public static final class SimulatedCrash extends Error {
        public SimulatedCrash(String where) {
            super("simulated crash " + where);
        }
    }
}
