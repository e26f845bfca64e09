package com.acme.payments.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * A workload's threads: daemon loops, each with its own seeded random, that run while {@link #running()},
 * and a daemon pool for the calls they fire alongside (a double-click, a second operator). Daemons, so a
 * run that fails never hangs the JVM.
 */
final class Loops {

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final ExecutorService side;

    Loops(String sideName) {
        this.side = daemonPool(sideName);
    }

    /** A cached pool of daemon threads, all named {@code name}. */
    static ExecutorService daemonPool(String name) {
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts {@code count} threads named {@code name + i}, thread i running {@code loop} with {@code randoms(i)}. */
    void start(int count, String name, IntFunction<Random> randoms, Consumer<Random> loop) {
        for (int i = 0; i < count; i++) {
            Random random = randoms.apply(i);
            Thread thread = new Thread(() -> loop.accept(random), name + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    boolean running() {
        return running.get();
    }

    ExecutorService side() {
        return side;
    }

    /** Ends the loops after their current step (a minute at the most each), then the side pool. */
    void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(60_000);
        }
        side.shutdownNow();
    }
}
