package com.acme.payments.sweep;

/**
 * The owner's catch-all after a call or apply that ended in an exception nobody classified: the row
 * must not stay IN_FLIGHT unexplained, so it goes UNKNOWN for the sweep to settle. If even that write
 * fails, the original exception still wins (the failure rides along as suppressed) — the sweep ages
 * IN_FLIGHT into UNKNOWN in any case.
 */
public final class Unclassified {

    private Unclassified() {
    }

    public static void markUnknown(SweptTable<?> store, long id, Throwable cause) {
        try {
            store.markUnknown(id);
        } catch (RuntimeException alsoFailed) {
            cause.addSuppressed(alsoFailed);
        }
    }
}
