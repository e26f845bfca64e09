package com.acme.payments.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/** An outbox sink for the relay benchmarks: answers 200 at once and counts each Idempotency-Key. */
public final class CountingSink {

    public final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
    private final HttpServer server;

    public CountingSink() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                body.readAllBytes();
            }
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            received.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public void stop() {
        server.stop(0);
    }
}
