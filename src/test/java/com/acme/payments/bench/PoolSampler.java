package com.acme.payments.bench;

import java.util.List;

/** Polls each instance's Hikari gauges (/actuator/prometheus) every 500 ms while a workload runs. */
final class PoolSampler {

    private final List<ServiceProcess> instances;
    private final Thread thread;
    private volatile double maxActive;
    private volatile double maxPending;
    private volatile int samples;

    PoolSampler(List<ServiceProcess> instances) {
        this.instances = instances;
        this.thread = new Thread(this::poll, "bench-pool-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void poll() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                for (ServiceProcess instance : instances) {
                    String text = instance.prometheus("hikaricp_connections_active", "hikaricp_connections_pending");
                    maxActive = Math.max(maxActive, ServiceProcess.metric(text, "hikaricp_connections_active", null));
                    maxPending = Math.max(maxPending, ServiceProcess.metric(text, "hikaricp_connections_pending", null));
                }
                samples++;
                Thread.sleep(500);
            }
        } catch (InterruptedException e) {
            // stopped
        } catch (Exception e) {
            System.out.println("[bench] pool sampler: " + e);
        }
    }

    /** Stops polling; "pool (10 per instance): active max 6, pending max 0 (30 samples)". */
    String stop() throws InterruptedException {
        thread.interrupt();
        thread.join(2000);
        return String.format("pool (10 per instance): active max %.0f, waiting threads max %.0f (%d samples)",
                maxActive, maxPending, samples);
    }
}
