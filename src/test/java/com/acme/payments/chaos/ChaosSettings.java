package com.acme.payments.chaos;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One chaos run's size: the seed (printed, so a failure can be replayed with {@code -Dchaos.seed}),
 * how long the workload runs, how many service processes and shopper threads, how long to settle.
 */
record ChaosSettings(long seed, Duration duration, int instances, int shoppers, int stripeSenders,
        Duration settleTimeout,
        Duration killEvery, Duration pgKillEvery, Duration faultEvery, Duration pgOutageEvery,
        Duration pgOutageLength) {

    /** The long run of {@code -Pchaos}: every knob from {@code -Dchaos.*}, a random seed unless given. */
    static ChaosSettings fromSystemProperties() {
        String seed = System.getProperty("chaos.seed");
        return new ChaosSettings(
                seed == null || seed.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(seed),
                Duration.parse("PT" + System.getProperty("chaos.duration", "5m").toUpperCase()),
                Integer.getInteger("chaos.instances", 3),
                Integer.getInteger("chaos.shoppers", 8),
                Integer.getInteger("chaos.stripe-senders", 2),
                Duration.parse("PT" + System.getProperty("chaos.settle", "3m").toUpperCase()),
                Duration.ofSeconds(Integer.getInteger("chaos.kill-every-seconds", 20)),
                Duration.ofSeconds(Integer.getInteger("chaos.pg-kill-every-seconds", 3)),
                Duration.ofMillis(Integer.getInteger("chaos.fault-every-millis", 400)),
                Duration.ofSeconds(Integer.getInteger("chaos.pg-outage-every-seconds", 90)),
                Duration.ofSeconds(Integer.getInteger("chaos.pg-outage-seconds", 8)));
    }

    /**
     * The short run inside {@code ./mvnw verify}: a fixed seed, two instances, about a minute of load, one
     * or two PostgreSQL outages of 8 s. The settle phase ends as soon as everything has settled; its
     * timeout is only an upper bound for a machine that is very busy.
     */
    static ChaosSettings shortRun() {
        return shortRun(20261130L);
    }

    /** The short run with another seed (each surface's short run has its own). */
    static ChaosSettings shortRun(long seed) {
        return new ChaosSettings(seed, Duration.ofSeconds(60), 2, 5, 2, Duration.ofSeconds(240),
                Duration.ofSeconds(15), Duration.ofSeconds(3), Duration.ofMillis(400), Duration.ofSeconds(35),
                Duration.ofSeconds(8));
    }
}
