package com.acme.payments.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;

import com.acme.pspsim.PspSimulatorApplication;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The PSP simulator in the test JVM, with its admin API (faults, records) and the hosted page's buttons. */
final class ChaosSimulator implements AutoCloseable {

    static final String API_KEY = "chaos-psp-key";
    static final String SIGNING_KEY = "chaos-signing-key";
    static final String ADMIN_TOKEN = "chaos-sim-admin";
    /** Per sink, the secret the service signs with and the simulator's sink verifies. */
    static final Map<String, String> SINK_SECRETS = Map.of("notify", "chaos-notify-secret",
            "conversion", "chaos-conversion-secret", "fulfilment", "chaos-fulfilment-secret",
            "shop-events", "whsec_Y2hhb3Mtc2hvcC1ldmVudHMtc2VjcmV0LTMyYnl0ZXM="); // Standard Webhooks
    static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();

    private final ConfigurableApplicationContext context;
    final String url;

    /** {@code surface}: the settings of the surface the run uses ({@link ChaosPsp#simulatorProperties}). */
    ChaosSimulator(Map<String, Object> surface) {
        Map<String, Object> properties = new java.util.HashMap<>(Map.of(
                "pspsim.api-key", API_KEY,
                "pspsim.signing-key", SIGNING_KEY,
                "pspsim.admin-token", ADMIN_TOKEN,
                "pspsim.signature-encoding", "hex",
                // held past the service's 2 s read timeout, then dropped
                "pspsim.timeout-hold", "3s",
                "pspsim.webhook-timeout", "3s",
                "pspsim.webhook-threads", "8",
                "logging.level.com.acme.pspsim", "WARN"));
        SINK_SECRETS.forEach((sink, secret) -> properties.put("pspsim.sink-secrets." + sink, secret));
        properties.putAll(surface);
        this.context = PspSimulatorApplication.start(0, properties);
        this.url = "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
    }

    /** Adds fault rules; true when the simulator took them. */
    boolean addFaults(String rulesJson) {
        return admin("POST", "/sim/faults", rulesJson).statusCode() == 200;
    }

    void clearFaults() {
        admin("DELETE", "/sim/faults", null);
    }

    JsonNode payments() {
        return JSON.readTree(admin("GET", "/sim/payments", null).body());
    }

    JsonNode webhooks() {
        return JSON.readTree(admin("GET", "/sim/webhooks", null).body());
    }

    JsonNode sink() {
        return JSON.readTree(admin("GET", "/sim/sink", null).body());
    }

    /** A late truth: the payment moves to {@code state} (visible to look-ups again) and its webhook is sent. */
    int move(String paymentId, String state, String errorCode) {
        String body = errorCode == null ? "{\"state\":\"" + state + "\"}"
                : "{\"state\":\"" + state + "\",\"errorCode\":\"" + errorCode + "\"}";
        return admin("POST", "/sim/payments/" + paymentId + "/state", body).statusCode();
    }

    /** A stale copy: a signed webhook of the payment as if it were in {@code state}; the payment is unchanged. */
    int resendAs(String paymentId, String state) {
        return admin("POST", "/sim/payments/" + paymentId + "/webhook", "{\"state\":\"" + state + "\"}").statusCode();
    }

    /** The payments created with this reference, hidden ones included. */
    JsonNode paymentsFor(String referenceId) {
        return JSON.readTree(admin("GET", "/sim/payments?referenceId=" + referenceId, null).body()).path("payments");
    }

    /** A button of the hosted page: {@code pay}, {@code decline} or {@code authorize}. Returns the status. */
    int click(String paymentId, String button) {
        return send(HttpRequest.newBuilder(URI.create(url + "/hosted/" + paymentId + "/" + button))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.noBody())).statusCode();
    }

    /** A Stripe admin hook ({@code POST /sim/stripe/<path>}); returns the status. */
    int stripe(String path, String body) {
        return admin("POST", "/sim/stripe/" + path, body).statusCode();
    }

    /** A Stripe admin hook ({@code POST /sim/stripe/<path>}); returns the object it answered, or an empty one. */
    JsonNode stripeAnswer(String path, String body) {
        HttpResponse<String> answer = admin("POST", "/sim/stripe/" + path, body);
        return answer.statusCode() == 200 ? JSON.readTree(answer.body()) : JSON.createObjectNode();
    }

    /** Every Stripe object of a kind: {@code sessions}, {@code payment_intents}, {@code refunds}, {@code events}, {@code webhooks}; {@code idempotency-keys}: POSTs per key. */
    JsonNode stripeRecords(String kind) {
        return JSON.readTree(admin("GET", "/sim/stripe/" + kind, null).body());
    }

    private HttpResponse<String> admin(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
