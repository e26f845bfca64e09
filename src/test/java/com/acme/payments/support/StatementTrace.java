package com.acme.payments.support;

import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import com.acme.payments.support.Http.Response;

/**
 * The round trips of one request, counted from the PostgreSQL driver's own trace (its Execute messages,
 * COMMIT included) on the request threads; shared by the Gateway's and Stripe's statement budgets. A
 * background pass (the relay's, the sweep's) is traced on the threads it names instead, with no answer.
 * {@link #commits()} counts every transaction that committed, a statement run in autocommit included: an
 * autocommit write is as much a commit (and a WAL flush) as an explicit COMMIT, so a budget that counted
 * only the COMMIT statements missed it.
 */
public record StatementTrace(Response answer, List<String> lines, long commits) {

    private static final String DRIVER = "org.postgresql.core.v3.QueryExecutorImpl";

    /** The driver's trace of request threads while {@code request} runs. */
    public static StatementTrace traced(Supplier<Response> request) {
        return traced(thread -> thread.startsWith("http-nio"), request);
    }

    /**
     * The driver's trace of the calling thread and of the threads whose name starts with one of
     * {@code workers} while {@code pass} runs (a job's pass: its claim on the caller, its calls and
     * settles on its pool); {@link #answer()} is null.
     */
    public static StatementTrace tracedPass(Runnable pass, String... workers) {
        String caller = Thread.currentThread().getName();
        return traced(thread -> thread.equals(caller) || java.util.Arrays.stream(workers).anyMatch(thread::startsWith),
                () -> {
                    pass.run();
                    return null;
                });
    }

    private static StatementTrace traced(Predicate<String> threads, Supplier<Response> request) {
        Logger driver = Logger.getLogger(DRIVER);
        Level before = driver.getLevel();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Map<Thread, Transactions> transactions = new ConcurrentHashMap<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (threads.test(Thread.currentThread().getName())) {
                    String line = record.getParameters() == null ? record.getMessage()
                            : MessageFormat.format(record.getMessage(), record.getParameters());
                    lines.add(line);
                    // a connection is used by one thread at a time, so a thread's lines are one session's
                    transactions.computeIfAbsent(Thread.currentThread(), t -> new Transactions()).read(line);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        handler.setLevel(Level.ALL);
        driver.addHandler(handler);
        driver.setLevel(Level.FINEST);
        try {
            Response answer = request.get();
            synchronized (lines) {
                return new StatementTrace(answer, List.copyOf(lines),
                        transactions.values().stream().mapToLong(Transactions::committed).sum());
            }
        } finally {
            driver.setLevel(before);
            driver.removeHandler(handler);
        }
    }

    public long statements() {
        return lines.stream().filter(l -> l.contains("FE=> Execute(")).count();
    }

    public List<String> queries() {
        return lines.stream().filter(l -> l.contains("FE=> Parse(") || l.contains("COMMIT")).map(String::strip).toList();
    }

    /**
     * One session's transactions, read from the server's ReadyForQuery status: a transaction ends when the
     * session is idle ({@code I}) again after a statement ran, either inside a block ({@code T}/{@code E},
     * ended by COMMIT or ROLLBACK) or alone in autocommit. An error or a ROLLBACK means it did not commit.
     * Round trips that run no statement (a describe, the pool's empty validation query) are not transactions.
     */
    private static final class Transactions {

        private boolean ran;
        private boolean block;
        private boolean failed;
        private long committed;

        void read(String line) {
            if (line.contains("FE=> Execute(")) {
                ran = true;
            } else if (line.contains("<=BE ErrorMessage(") || line.contains("CommandStatus(ROLLBACK")) {
                failed = true;
            } else if (line.contains("<=BE ReadyForQuery(T)") || line.contains("<=BE ReadyForQuery(E)")) {
                block = true;
            } else if (line.contains("<=BE ReadyForQuery(I)")) {
                if ((ran || block) && !failed) {
                    committed++;
                }
                ran = false;
                block = false;
                failed = false;
            }
        }

        long committed() {
            return committed;
        }
    }
}
