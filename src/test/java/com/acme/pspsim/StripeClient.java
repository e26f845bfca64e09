package com.acme.pspsim;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;

/** Calls the simulator's Stripe surface as the service does: form-encoded, Bearer key, Idempotency-Key. */
final class StripeClient {

    static final String KEY = "sk_test_sim_tests";
    static final String SECRET = "whsec_sim_tests";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();

    private final String baseUrl;

    StripeClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    HttpResponse<String> post(String path, String form, String idempotencyKey) {
        return post(path, form, idempotencyKey, Duration.ofSeconds(10));
    }

    HttpResponse<String> post(String path, String form, String idempotencyKey, Duration timeout) {
        try {
            return send(path, form, idempotencyKey, timeout);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A POST whose network failures reach the caller. */
    HttpResponse<String> send(String path, String form, String idempotencyKey, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(timeout)
                .header("Authorization", "Bearer " + KEY)
                .header("Stripe-Version", StripeSettings.API_VERSION)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) {
        return get(path, "Bearer " + KEY);
    }

    HttpResponse<String> get(String path, String authorization) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10))
                    .header("Stripe-Version", StripeSettings.API_VERSION).GET();
            if (authorization != null) {
                b.header("Authorization", authorization);
            }
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    JsonNode ok(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException(response.uri() + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return RunningSimulator.json(response.body());
    }

    JsonNode session(String id) {
        return ok(get("/v1/checkout/sessions/" + id));
    }

    JsonNode intent(String id) {
        return ok(get("/v1/payment_intents/" + id));
    }

    JsonNode refund(String id) {
        return ok(get("/v1/refunds/" + id));
    }

    /** A payment-mode session as the service creates it (contract: one line item, our metadata). */
    static String sessionForm(String ref, long amount, long expiresAt, boolean manual) {
        return "mode=payment&line_items[0][quantity]=1&line_items[0][price_data][currency]=eur"
                + "&line_items[0][price_data][unit_amount]=" + amount
                + "&line_items[0][price_data][product_data][name]=Order%20" + ref
                + "&client_reference_id=" + ref + "&metadata[orderRef]=ord-" + ref + "&metadata[attempt]=" + ref
                + "&payment_intent_data[metadata][orderRef]=ord-" + ref + "&payment_intent_data[metadata][attempt]="
                + ref + "&success_url=https%3A%2F%2Fshop.test%2Fback%3Fs%3D%7BCHECKOUT_SESSION_ID%7D"
                + "&cancel_url=https%3A%2F%2Fshop.test%2Fback&expires_at=" + expiresAt
                + "&customer_email=c%40example.test"
                + (manual ? "&payment_intent_data[capture_method]=manual" : "");
    }
}
