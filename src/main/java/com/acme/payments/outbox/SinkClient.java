package com.acme.payments.outbox;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import com.acme.payments.common.http.ByteArrayJdkRequestFactory;

/**
 * POSTs one effect to its sink: the body is the stored payload with the effect's id and time
 * ({@link SinkBody}), the effect's idempotency key goes in {@code Idempotency-Key}, and {@code Payments-Signature} when the sink has a secret (see
 * {@link SinkSignature}); a shop event carries the Standard Webhooks headers instead ({@link StandardWebhookSignature}). Only a 2xx counts as accepted; everything else (other statuses, timeouts,
 * refused connections) is a failure to retry. Never follows redirects, never logs bodies or URLs.
 * <p>
 * Boot's {@link RestClient.Builder} makes the call observed: it is a client span of the trace that wrote
 * the row ({@link DeliveryTrace}) and sends that trace's {@code traceparent}.
 */
@Component
class SinkClient {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** A sink's answer body is never read; past this size its connection is dropped. */
    private static final int MAX_BODY = 64 * 1024;

    /** The sink's answer, or why there was none. {@code error} is short and safe to store and log. */
    record Result(boolean accepted, String error) {
    }

    private final RestClient http;
    private final DeliveryTrace trace;

    SinkClient(OutboxProperties properties, RestClient.Builder builder, DeliveryTrace trace) {
        OutboxProperties.Sinks settings = properties.sinks();
        this.trace = trace;
        // HTTP/1.1: the JDK client would otherwise try an h2c upgrade on plain http. Pooled keep-alive
        // connections; no thread per delivery (see ByteArrayJdkRequestFactory).
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(ByteArrayJdkRequestFactory.daemonPool("sink-http-", 2))
                .build();
        // the status is the answer: it counts when the headers arrive, the body is only drained
        this.http = builder.clone().requestFactory(ByteArrayJdkRequestFactory.statusOnly(client,
                settings.readTimeout(), MAX_BODY, ByteArrayJdkRequestFactory.deadlineTimer("sink-http-deadline-")))
                .build();
    }

    /** {@code signature}: the {@code Payments-Signature} value, or null for a sink without a secret. */
    Result post(URI url, String idempotencyKey, String jsonBody, String signature, String traceParent)
            throws InterruptedException {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(IDEMPOTENCY_KEY, idempotencyKey);
        if (signature != null) {
            headers.put(SinkSignature.HEADER, signature);
        }
        return post(url, headers, jsonBody, traceParent);
    }

    /** The same call with the headers given (a shop event's Standard Webhooks headers). */
    Result post(URI url, Map<String, String> headers, String jsonBody, String traceParent)
            throws InterruptedException {
        return trace.continuing(traceParent, "sink", () -> send(url, headers, jsonBody));
    }

    private Result send(URI url, Map<String, String> headers, String jsonBody) throws InterruptedException {
        try {
            int status = http.post().uri(url)
                    .contentType(MediaType.APPLICATION_JSON)
                    .headers(h -> headers.forEach(h::set))
                    .body(jsonBody.getBytes(StandardCharsets.UTF_8))
                    .exchange((request, response) -> response.getStatusCode().value(), true);
            return status >= 200 && status < 300 ? new Result(true, null) : new Result(false, "HTTP " + status);
        } catch (ResourceAccessException e) {
            if (Thread.currentThread().isInterrupted()) { // the request factory turns an interrupt into an I/O error
                throw new InterruptedException("sink call interrupted");
            }
            return new Result(false, describe(e.getCause()));
        } catch (RestClientException e) {
            return new Result(false, "I/O error: " + e.getClass().getSimpleName());
        }
    }

    private static String describe(Throwable cause) {
        if (cause instanceof HttpConnectTimeoutException) {
            return "connect timeout";
        }
        if (cause instanceof HttpTimeoutException) {
            return "read timeout";
        }
        if (cause instanceof ConnectException) {
            return "connection refused";
        }
        return "I/O error: " + (cause instanceof IOException ? cause.getClass().getSimpleName() : "unknown");
    }
}
