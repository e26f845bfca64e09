package com.acme.pspsim;

/** Sleeping is the point of latency and timeout faults; an interrupt ends it early. */
final class Sleep {

    private Sleep() {
    }

    static void millis(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
