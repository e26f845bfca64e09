package com.acme.pspsim;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;

/** An in-test HTTP receiver recording every webhook in order, with its raw bytes and signature. */
final class WebhookReceiver implements AutoCloseable {

    record Received(int seq, String signature, byte[] body) {
        JsonNode json() {
            return RunningSimulator.json(new String(body, StandardCharsets.UTF_8));
        }

        String state() {
            return json().path("state").asString();
        }

        String paymentId() {
            return json().path("id").asString();
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger sequence = new AtomicInteger();
    private volatile long answerDelayMs;

    WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/webhooks/psp", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Sleep.millis(answerDelayMs);
            received.add(new Received(sequence.incrementAndGet(), exchange.getRequestHeaders().getFirst("Signature"),
                    body));
            byte[] answer = "{\"status\":\"applied\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
    }

    /**
     * Records (and answers) each webhook only after {@code ms}: a webhook seen at once can then only
     * have been delivered synchronously, before the call that caused it answered.
     */
    void answerAfter(long ms) {
        answerDelayMs = ms;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks/psp";
    }

    /** What arrived about one payment, in arrival order. */
    List<Received> about(String paymentId) {
        return received.stream().filter(r -> paymentId.equals(r.paymentId())).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
