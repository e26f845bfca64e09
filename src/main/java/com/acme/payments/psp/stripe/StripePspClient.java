package com.acme.payments.psp.stripe;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import com.acme.payments.common.http.ByteArrayJdkRequestFactory;
import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PaymentPayloadFault;
import com.acme.payments.psp.PayloadFaultMetrics;
import com.acme.payments.psp.PspCallMetrics;
import com.acme.payments.psp.PspRejected;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Stripe API as the PSP adapter speaks it: form-encoded bodies, {@code Authorization: Bearer},
 * {@code Stripe-Version} pinned on every call, the {@code payments.psp.*} timeouts, bounded bodies. It
 * sends exactly the bytes it is given and never retries: a replay is the reconcile's decision.
 *
 * <p>Classified fail-safe as the Gateway's client is: a {@link Reply} is only what Stripe really answered
 * (status, {@code Idempotent-Replayed}, the JSON body if it was JSON); a timeout, a reset, a truncated or
 * oversized body, any exception at all is {@link PaymentOutcomeUnknown}. {@link #answer} then reads a reply
 * as a result: only a 4xx carrying Stripe's error object is a confirmed refusal ({@link PspRejected}), and
 * never a 409 (a request with this key is still executing), a 429 (not executed, try again), or a 400
 * {@code idempotency_error} (the key is Stripe's, the request's fate is not told): those are unknown, like
 * every 5xx and every answer we cannot read.
 *
 * <p>Every call is sent, answered and read inside {@link PspCallMetrics#count}, so it is counted in
 * {@code payments.psp.calls} by the Gateway's rule, from what this classification threw: a refusal
 * {@code rejected}, a key's trouble or a 429 {@code error} like a 5xx, a timeout {@code timeout}, an object we
 * cannot book {@code unbookable}. {@code operation} is that counter's vocabulary ({@code create} for a session,
 * a refund and their replays, {@code find} for a page of a listing).
 */
final class StripePspClient {

    private static final Logger log = LoggerFactory.getLogger(StripePspClient.class);
    /** A page of 100 sessions with their expanded PaymentIntents is well under this. */
    static final int MAX_BODY = 4 << 20;

    private final RestClient rest;
    private final JsonMapper json;
    private final PayloadFaultMetrics faults;
    private final PspCallMetrics calls;
    private final String apiBase;

    StripePspClient(RestClient.Builder builder, JsonMapper json, PayloadFaultMetrics faults, PspCallMetrics calls,
            String apiBase, String apiKey, Duration connectTimeout, Duration readTimeout, String userAgent) {
        this.json = json;
        this.faults = faults;
        this.calls = calls;
        this.apiBase = apiBase.replaceAll("/+$", "");
        // one client, pooled keep-alive connections, no thread per call (see ByteArrayJdkRequestFactory)
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .version(HttpClient.Version.HTTP_1_1)
                .executor(ByteArrayJdkRequestFactory.daemonPool("stripe-psp-http-", 2))
                .build();
        this.rest = builder.clone()
                .requestFactory(new ByteArrayJdkRequestFactory(http, readTimeout, MAX_BODY,
                        ByteArrayJdkRequestFactory.deadlineTimer("stripe-psp-deadline-")))
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey)
                .defaultHeader("Stripe-Version", StripeObjects.API_VERSION)
                .defaultHeader(HttpHeaders.USER_AGENT, userAgent)
                .defaultHeader(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE)
                .build();
    }

    /** What Stripe answered: its status, whether it replayed a stored result, its JSON body (null if none). */
    record Reply(int status, boolean replayed, JsonNode body, Duration retryAfter) {

        Reply(int status, boolean replayed, JsonNode body) {
            this(status, replayed, body, null);
        }

        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** Stripe's {@code error} object of a failed request, or null when the body has none. */
        JsonNode error() {
            JsonNode error = body == null ? null : body.get("error");
            return error != null && error.isObject() ? error : null;
        }

        String errorField(String name) {
            return StripeObjects.text(error(), name);
        }

        /** Stripe's answer about the key itself, never about the payment: a key in flight or reused. */
        boolean aboutTheKey() {
            String code = errorField("code");
            return status == 409 || "idempotency_error".equals(errorField("type"))
                    || code != null && code.startsWith("idempotency");
        }
    }

    /** POST {@code path} with the form body exactly as given, under {@code idempotencyKey}; read by {@link #answer}. */
    <T> T post(String operation, String path, String form, String idempotencyKey, Function<JsonNode, T> reader) {
        RestClient.RequestHeadersSpec<?> request = postRequest(path, form, idempotencyKey);
        return calls.count(operation, () -> answer(operation + " " + path, exchange(operation, path, request), reader));
    }

    /** GET {@code path} with the query parameters in the given order; read by {@link #answer}. */
    <T> T get(String operation, String path, Map<String, String> query, Function<JsonNode, T> reader) {
        RestClient.RequestHeadersSpec<?> request = getRequest(path, query);
        return calls.count(operation, () -> answer(operation + " " + path, exchange(operation, path, request), reader));
    }

    /**
     * A reconcile's replay: the created object, or Stripe's reply when it was no 2xx (the reconcile reads it),
     * with {@code refused} set when {@link #answer} reads that reply as a confirmed refusal.
     */
    record Replayed<T>(T value, Reply notCreated, PspRejected refused) {
    }

    /**
     * A reconcile's replay of a create ({@code create}, as it is one): {@link #post}, except that an answer
     * that is no 2xx is handed back rather than thrown — whether it was stored, or about the key, decides if
     * the reconcile may replay again — and is counted all the same, as {@link #answer} classifies it. No
     * answer at all, or a 2xx we cannot read, is thrown as from {@link #post}.
     */
    <T> Replayed<T> replay(String path, String form, String idempotencyKey, Function<JsonNode, T> reader) {
        RestClient.RequestHeadersSpec<?> request = postRequest(path, form, idempotencyKey);
        AtomicReference<Reply> answered = new AtomicReference<>();
        try {
            return new Replayed<>(calls.count(PspCallMetrics.CREATE, () -> {
                Reply reply = exchange(PspCallMetrics.CREATE, path, request);
                answered.set(reply);
                return answer(PspCallMetrics.CREATE + " " + path, reply, reader);
            }), null, null);
        } catch (PspRejected | PaymentOutcomeUnknown notCreated) {
            Reply reply = answered.get();
            if (reply == null || reply.ok()) {
                throw notCreated;
            }
            return new Replayed<>(null, reply, notCreated instanceof PspRejected refused ? refused : null);
        }
    }

    private RestClient.RequestHeadersSpec<?> postRequest(String path, String form, String idempotencyKey) {
        return rest.post().uri(URI.create(apiBase + path))
                .header("Idempotency-Key", idempotencyKey)
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .body(form.getBytes(StandardCharsets.UTF_8));
    }

    private RestClient.RequestHeadersSpec<?> getRequest(String path, Map<String, String> query) {
        return rest.get().uri(URI.create(apiBase + path + (query.isEmpty() ? "" : "?" + encode(query))));
    }

    /**
     * A reply read as a result: a 2xx JSON object through {@code reader}, a confirmed refusal as
     * {@link PspRejected} (its code Stripe's {@code decline_code}, else {@code code}, else {@code type}),
     * anything else as {@link PaymentOutcomeUnknown}; an object we cannot book is unknown too, and counted.
     */
    private <T> T answer(String operation, Reply reply, Function<JsonNode, T> reader) {
        if (reply.ok()) {
            if (reply.body() == null || !reply.body().isObject()) {
                throw new PaymentOutcomeUnknown(operation + " answered " + reply.status() + " without a JSON object");
            }
            try {
                return reader.apply(reply.body());
            } catch (PaymentPayloadFault fault) {
                faults.fault(PayloadFaultMetrics.ANSWER, fault);
                log.warn("stripe {} answered a payment that cannot be booked ({}: {}); left for the next pass",
                        operation, fault.kind().slug(), fault.getMessage());
                throw new PaymentOutcomeUnknown(operation + " answered a payment that cannot be booked", fault);
            } catch (RuntimeException unreadable) {
                throw new PaymentOutcomeUnknown(operation + " answered an object we cannot read: "
                        + unreadable.getMessage(), unreadable);
            }
        }
        if (reply.status() >= 400 && reply.status() < 500 && reply.status() != 429 && reply.error() != null
                && !reply.aboutTheKey()) {
            String code = reply.errorField("decline_code");
            code = code != null ? code : reply.errorField("code");
            code = code != null ? code : reply.errorField("type");
            throw new PspRejected(reply.status(), code, reply.errorField("message"));
        }
        throw new PaymentOutcomeUnknown(operation + " answered HTTP " + reply.status()
                + (reply.aboutTheKey() ? " about its Idempotency-Key" : "") + (reply.replayed() ? " (replayed)" : ""),
                reply.status() == 429 || reply.status() >= 500 ? reply.retryAfter() : null);
    }

    private Reply exchange(String operation, String path, RestClient.RequestHeadersSpec<?> request) {
        try {
            return request.exchange((req, response) -> {
                int status = response.getStatusCode().value();
                byte[] body = readBounded(response.getBody());
                boolean replayed = "true".equalsIgnoreCase(response.getHeaders().getFirst("Idempotent-Replayed"));
                MediaType type = response.getHeaders().getContentType();
                JsonNode tree = null;
                if (type != null && (type.isCompatibleWith(MediaType.APPLICATION_JSON)
                        || type.getSubtype().endsWith("+json"))) {
                    tree = tryParse(body);
                }
                return new Reply(status, replayed, tree,
                        PaymentOutcomeUnknown.retryAfter(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)));
            }, true);
        } catch (RuntimeException unclassified) {
            // timeouts, resets, truncated or oversized bodies, anything new a library upgrade brings
            log.warn("stripe {} {} outcome unknown: {}", operation, path, unclassified.getClass().getSimpleName());
            throw new PaymentOutcomeUnknown(operation + " failed: " + unclassified.getClass().getSimpleName(),
                    unclassified);
        }
    }

    private JsonNode tryParse(byte[] body) {
        try {
            return json.readTree(body);
        } catch (RuntimeException notJson) {
            return null; // undecodable: a 2xx becomes unknown, a 4xx is no confirmed refusal
        }
    }

    private static byte[] readBounded(InputStream in) throws IOException {
        if (in == null) {
            return new byte[0];
        }
        byte[] body = in.readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            throw new IOException("Stripe body larger than " + MAX_BODY + " bytes");
        }
        return body;
    }

    /** {@code application/x-www-form-urlencoded}, in the map's order: the same map gives the same bytes. */
    static String encode(Map<String, String> parameters) {
        StringJoiner form = new StringJoiner("&");
        parameters.forEach((key, value) -> form.add(URLEncoder.encode(key, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return form.toString();
    }
}
