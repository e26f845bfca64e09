package com.acme.payments.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Random;

import tools.jackson.databind.JsonNode;

/**
 * Calls the service processes the way a shop would through a load balancer that does not hide failures:
 * a call goes to one instance, and a dead or killed instance shows up as status {@code -1} (no answer).
 */
final class ServiceClient {

    static final String SHOP_KEY = "test-shop-key";
    static final String ADMIN_KEY = "test-admin-key";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).followRedirects(HttpClient.Redirect.NEVER).build();

    private final ServiceProcesses services;

    ServiceClient(ServiceProcesses services) {
        this.services = services;
    }

    /**
     * An answer; status -1 when none came (refused, reset, timed out). When the request went out and the answer
     * came ({@link System#nanoTime}), so an invariant can tell whether it overlapped an injected outage.
     */
    record Answer(int status, String body, String retryAfter, int instance, long sentNanos, long answeredNanos) {

        /** An answer whose timing no invariant reads (unit tests of the checks). */
        Answer(int status, String body, String retryAfter, int instance) {
            this(status, body, retryAfter, instance, 0, 0);
        }

        boolean answered() {
            return status > 0;
        }

        JsonNode json() {
            try {
                return ChaosSimulator.JSON.readTree(body);
            } catch (RuntimeException e) {
                return ChaosSimulator.JSON.createObjectNode();
            }
        }

        String problem() {
            String type = json().path("type").asString("");
            return type.substring(type.lastIndexOf('/') + 1);
        }
    }

    int instances() {
        return services.count();
    }

    int randomInstance(Random random) {
        return random.nextInt(services.count());
    }

    /** {@code /actuator/health} of one instance (no credential). */
    Answer health(int instance) {
        return send(instance, HttpRequest.newBuilder(URI.create(services.url(instance) + "/actuator/health"))
                .timeout(Duration.ofSeconds(15)).GET());
    }

    /** A Stripe webhook delivery: no bearer, the signature header instead. */
    Answer stripe(int instance, String body, String signature) {
        return send(instance, HttpRequest.newBuilder(URI.create(services.url(instance) + "/webhooks/stripe"))
                .timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json")
                .header("Stripe-Signature", signature)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A PSP webhook delivery: no bearer, the {@code Signature} header instead. */
    Answer psp(int instance, String body, String signature) {
        return send(instance, HttpRequest.newBuilder(URI.create(services.url(instance) + "/webhooks/psp"))
                .timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json")
                .header("Signature", signature)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /**
     * A call with a bearer. {@link #SHOP_KEY} and {@link #ADMIN_KEY} name who is calling; once the run's scoped keys
     * are issued the call goes out with the one its path needs ({@link ScopedKeys}).
     */
    Answer call(int instance, String method, String path, String bearer, String idempotencyKey, String body) {
        String key = ScopedKeys.bearerFor(method, path, bearer);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(services.url(instance) + path))
                .timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + key)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        Answer answer = send(instance, request);
        ScopedKeys.answered(method, path, key, answer);
        return answer;
    }

    private static Answer send(int instance, HttpRequest.Builder request) {
        long sent = System.nanoTime();
        try {
            HttpResponse<String> r = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body(), r.headers().firstValue("Retry-After").orElse(null), instance,
                    sent, System.nanoTime());
        } catch (IOException e) {
            return new Answer(-1, e.toString(), null, instance, sent, System.nanoTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, "interrupted", null, instance, sent, System.nanoTime());
        }
    }
}
