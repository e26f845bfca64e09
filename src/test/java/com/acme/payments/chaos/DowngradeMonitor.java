package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples every order's status while the run goes on and records each downgrade it sees: PAID left for
 * anything, or AUTHORIZED back to AWAITING_PAYMENT / PROCESSING. (PAYMENT_FAILED back to
 * AWAITING_PAYMENT is a new checkout, AUTHORIZED to PAYMENT_FAILED a void: both allowed.)
 */
final class DowngradeMonitor {

    private final Map<String, String> last = new HashMap<>();
    private final List<String> downgrades = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong samples = new AtomicLong();
    private Thread thread;

    void start() {
        thread = new Thread(this::loop, "chaos-downgrade-monitor");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() throws InterruptedException {
        running.set(false);
        thread.join(10_000);
        sample();
    }

    List<String> downgrades() {
        return downgrades;
    }

    long samples() {
        return samples.get();
    }

    private void loop() {
        while (running.get()) {
            sample();
            ServiceProcesses.sleep(250);
        }
    }

    private synchronized void sample() {
        try (Connection c = TestDatabaseName.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT order_ref, status FROM orders")) {
            while (rs.next()) {
                String ref = rs.getString(1);
                String now = rs.getString(2);
                String before = last.put(ref, now);
                if (before != null && !before.equals(now) && downgrade(before, now)) {
                    downgrades.add(ref + ": " + before + " -> " + now);
                }
            }
            samples.incrementAndGet();
        } catch (Exception e) {
            // the database may be briefly unreachable; the next sample catches up
        }
    }

    private static boolean downgrade(String before, String now) {
        if (before.equals("PAID")) {
            return true;
        }
        return before.equals("AUTHORIZED") && (now.equals("AWAITING_PAYMENT") || now.equals("PROCESSING"));
    }
}
