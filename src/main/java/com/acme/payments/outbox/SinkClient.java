package com.acme.payments.outbox;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;

import org.springframework.stereotype.Component;

/**
 * POSTs one effect to its sink: the stored payload is the body, the effect's idempotency key goes in
 * {@code Idempotency-Key}, and {@code Payments-Signature} when the sink has a secret (see
 * {@link SinkSignature}). Only a 2xx counts as accepted; everything else (other statuses, timeouts,
 * refused connections) is a failure to retry. Never follows redirects, never logs bodies or URLs.
 */
@Component
class SinkClient {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** The sink's answer, or why there was none. {@code error} is short and safe to store and log. */
    record Result(boolean accepted, String error) {
    }

    private final HttpClient http;
    private final OutboxProperties.Sinks settings;

    SinkClient(OutboxProperties properties) {
        this.settings = properties.sinks();
        // HTTP/1.1: the JDK client would otherwise try an h2c upgrade on plain http.
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** {@code signature}: the {@code Payments-Signature} value, or null for a sink without a secret. */
    Result post(URI url, String idempotencyKey, String jsonBody, String signature) throws InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .timeout(settings.readTimeout())
                .header("Content-Type", "application/json")
                .header(IDEMPOTENCY_KEY, idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
        if (signature != null) {
            builder.header(SinkSignature.HEADER, signature);
        }
        HttpRequest request = builder.build();
        try {
            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            return status >= 200 && status < 300 ? new Result(true, null) : new Result(false, "HTTP " + status);
        } catch (HttpConnectTimeoutException e) {
            return new Result(false, "connect timeout");
        } catch (HttpTimeoutException e) {
            return new Result(false, "read timeout");
        } catch (ConnectException e) {
            return new Result(false, "connection refused");
        } catch (IOException e) {
            return new Result(false, "I/O error: " + e.getClass().getSimpleName());
        }
    }
}
