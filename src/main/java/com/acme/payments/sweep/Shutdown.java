package com.acme.payments.sweep;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Tells running jobs that the instance is stopping, early in shutdown, so they stop taking new rows
 * from their batch. What they leave claimed is never lost: its lease expires and the next run on any
 * instance picks it up.
 */
@Component
public class Shutdown implements SmartLifecycle {

    private volatile boolean running;

    public boolean stopping() {
        return !running;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE; // stopped first
    }
}
