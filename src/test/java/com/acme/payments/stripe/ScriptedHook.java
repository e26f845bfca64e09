package com.acme.payments.stripe;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;

/**
 * The test's hand inside a worker: per event id, an action at a chosen point (after the claim, inside
 * the transaction before or after the business writes, after the commit; {@link StripeTestHooks} calls
 * the points from around the production beans). Throwing
 * {@link SimulatedCrash} (an Error) is a worker dying: nothing releases its claim.
 */
public class ScriptedHook {

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

    void afterClaim(String eventId) {
        run(afterClaim, eventId, 0);
    }

    void beforeBusinessWrites(String eventId, int attempt) {
        run(beforeWrites, eventId, attempt);
    }

    void afterBusinessWrites(String eventId, int attempt) {
        run(afterWrites, eventId, attempt);
    }

    void afterCommit(String eventId) {
        run(afterCommit, eventId, 0);
    }

    private static void run(Map<String, IntConsumer> actions, String eventId, int attempt) {
        IntConsumer action = actions.get(eventId);
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
