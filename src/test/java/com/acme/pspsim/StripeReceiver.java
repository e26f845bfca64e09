package com.acme.pspsim;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;

/** An in-test {@code /webhooks/stripe}: records every event delivery in order, answers 200 unless told otherwise. */
final class StripeReceiver implements AutoCloseable {

    record Received(int seq, String signature, byte[] body) {
        JsonNode json() {
            return RunningSimulator.json(new String(body, StandardCharsets.UTF_8));
        }

        String type() {
            return json().path("type").asString();
        }

        String eventId() {
            return json().path("id").asString();
        }

        JsonNode object() {
            return json().path("data").path("object");
        }

        /** Stripe's check: {@code v1} = HMAC-SHA256 of {@code "<t>." + body} with the endpoint secret. */
        boolean signedWith(String secret) {
            long t = -1;
            String v1 = null;
            for (String part : signature.split(",")) {
                if (part.startsWith("t=")) {
                    t = Long.parseLong(part.substring(2));
                } else if (part.startsWith("v1=")) {
                    v1 = part.substring(3);
                }
            }
            return t > 0 && v1 != null && v1.equals(HexFormat.of().formatHex(hmac(secret, t + "." + text())));
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** Computed here, not with the simulator's own code, so a wrong scheme there cannot pass. */
        private static byte[] hmac(String secret, String signedPayload) {
            try {
                javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
                mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                return mac.doFinal(signedPayload.getBytes(StandardCharsets.UTF_8));
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger sequence = new AtomicInteger();
    private volatile int failuresLeft;
    private volatile long answerDelayMs;

    StripeReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/webhooks/stripe", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Sleep.millis(answerDelayMs);
            received.add(new Received(sequence.incrementAndGet(),
                    exchange.getRequestHeaders().getFirst("Stripe-Signature"), body));
            boolean fail = failuresLeft > 0;
            if (fail) {
                failuresLeft--;
            }
            byte[] answer = (fail ? "{\"error\":\"busy\"}" : "{\"received\":true}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(fail ? 500 : 200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
    }

    /** Records (and answers) each delivery only after {@code ms}: one seen at once was sent before the call answered. */
    void answerAfter(long ms) {
        answerDelayMs = ms;
    }

    /** The next {@code n} deliveries are answered 500. */
    void failNext(int n) {
        failuresLeft = n;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks/stripe";
    }

    /** What arrived about objects of this payment (any object whose id, payment_intent or session is {@code id}). */
    List<Received> about(String... ids) {
        List<String> wanted = List.of(ids);
        return received.stream().filter(r -> wanted.contains(r.object().path("id").asString())
                || wanted.contains(r.object().path("payment_intent").asString(""))).toList();
    }

    List<String> typesAbout(String... ids) {
        return about(ids).stream().map(Received::type).toList();
    }

    void clear() {
        received.clear();
        failuresLeft = 0;
        answerDelayMs = 0;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
