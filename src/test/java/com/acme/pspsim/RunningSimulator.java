package com.acme.pspsim;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The simulator started on a random port for one test class, with a real HTTP client. */
final class RunningSimulator implements AutoCloseable {

    static final String API_KEY = "test-sim-key";
    static final String SIGNING_KEY = "test-sim-signing";
    static final String ADMIN_TOKEN = "test-sim-admin";
    static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();

    final ConfigurableApplicationContext context;
    final String baseUrl;

    private RunningSimulator(ConfigurableApplicationContext context) {
        this.context = context;
        this.baseUrl = "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
    }

    static RunningSimulator start(Map<String, ?> overrides) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("pspsim.api-key", API_KEY);
        all.put("pspsim.signing-key", SIGNING_KEY);
        all.put("pspsim.admin-token", ADMIN_TOKEN);
        all.put("pspsim.timeout-hold", "3s");
        all.putAll(overrides);
        return new RunningSimulator(PspSimulatorApplication.start(0, all));
    }

    /** A raw call with the API key and a short read timeout; network failures reach the caller. */
    HttpResponse<String> send(String method, String path, String body, Duration timeout)
            throws IOException, InterruptedException {
        return CLIENT.send(request(method, path, body, timeout, API_KEY).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> api(String method, String path, String body) {
        return call(method, path, body, API_KEY);
    }

    HttpResponse<String> admin(String method, String path, String body) {
        return call(method, path, body, ADMIN_TOKEN);
    }

    HttpResponse<String> call(String method, String path, String body, String bearer) {
        try {
            return CLIENT.send(request(method, path, body, Duration.ofSeconds(10), bearer).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Creates a payment and returns its {@code result}. */
    JsonNode create(String body) {
        HttpResponse<String> response = api("POST", "/api/v1/payments", body);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("create answered " + response.statusCode() + ": " + response.body());
        }
        return json(response.body()).path("result");
    }

    JsonNode payment(String id) {
        return json(api("GET", "/api/v1/payments/" + id, null).body()).path("result");
    }

    JsonNode find(String referenceId) {
        return json(api("GET", "/api/v1/payments?referenceId.eq=" + referenceId, null).body()).path("result");
    }

    int createCount(String referenceId) {
        return json(admin("GET", "/sim/payments?referenceId=" + referenceId, null).body()).path("createCounts")
                .path(referenceId).asInt();
    }

    void faults(String rules) {
        HttpResponse<String> response = admin("POST", "/sim/faults", rules);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("faults answered " + response.statusCode() + ": " + response.body());
        }
    }

    /** Clicks a button of the hosted page (a form POST, as the browser sends it). */
    HttpResponse<String> click(String paymentId, String action) {
        return call("POST", "/hosted/" + paymentId + "/" + action, "", null);
    }

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    private HttpRequest.Builder request(String method, String path, String body, Duration timeout, String bearer) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(timeout)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return b;
    }

    void reset() {
        admin("POST", "/sim/reset", null);
    }

    @Override
    public void close() {
        context.close();
    }
}
