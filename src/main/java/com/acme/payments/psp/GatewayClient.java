package com.acme.payments.psp;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

import com.acme.payments.common.http.ByteArrayJdkRequestFactory;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PSP Gateway API's adapter of the {@link PaymentProvider} port, on Spring's {@link RestClient}
 * ({@code PSP_PROVIDER=gateway}, the default). Its states are ours already; it is classified fail-safe: only a real HTTP status is
 * a known outcome. A 4xx is a confirmed refusal ({@link PspRejected}); everything else that is not a
 * 2xx JSON envelope (5xx, timeouts, resets, a proxy's HTML page, a truncated body, any exception at
 * all) is {@link PaymentOutcomeUnknown}. The body is read and parsed inside the guard, because
 * RestClient reads lazily and a read timeout can surface anywhere. So is an answer holding a value we
 * cannot book ({@link PaymentPayloadRules}): it is counted, and the row that asked stays open for the
 * next pass, as if the PSP had not answered — never half-applied, never "not found".
 */
@Component
@ConditionalOnProperty(prefix = "payments.psp", name = "provider", havingValue = "gateway", matchIfMissing = true)
public class GatewayClient implements PaymentProvider {

    private static final Logger log = LoggerFactory.getLogger(GatewayClient.class);
    private static final int MAX_BODY = 1 << 20;
    /** The reconciliation's listing: only reads, so a 429 is asked again rather than taken as a refusal. */
    private static final String LISTING = "list";

    private final RestClient rest;
    private final JsonMapper json;
    private final String webhookUrl;
    private final PayloadFaultMetrics faults;
    private final PspCallMetrics calls;

    GatewayClient(PspProperties properties, RestClient.Builder builder, JsonMapper json, PayloadFaultMetrics faults,
            PspCallMetrics calls) {
        this.json = json;
        this.faults = faults;
        this.calls = calls;
        this.webhookUrl = properties.webhookUrl();
        // keep-alive connections are pooled by the one client; its few executor threads only move bytes
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(properties.connectTimeout())
                .version(HttpClient.Version.HTTP_1_1)
                .executor(ByteArrayJdkRequestFactory.daemonPool("psp-http-", 2))
                .build();
        this.rest = builder.clone()
                .requestFactory(new ByteArrayJdkRequestFactory(http, properties.readTimeout(), MAX_BODY,
                        ByteArrayJdkRequestFactory.deadlineTimer("psp-http-deadline-")))
                .baseUrl(properties.apiUrl())
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + properties.apiKey())
                .defaultHeader(HttpHeaders.USER_AGENT, properties.userAgent())
                .defaultHeader(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE)
                .build();
    }

    /** POST /api/v1/payments. Never retried here: a second POST would be a second payment. */
    @Override
    public PspPayment create(CreatePayment request) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("paymentType", request.paymentType());
        body.put("amount", request.amount().toPlainString());
        body.put("currency", request.currency());
        body.put("referenceId", request.referenceId());
        putIfPresent(body, "returnUrl", request.returnUrl());
        body.put("webhookUrl", webhookUrl);
        putIfPresent(body, "parentPaymentId", request.parentPaymentId());
        if (request.customer() != null) {
            Map<String, Object> customer = new LinkedHashMap<>();
            putIfPresent(customer, "referenceId", request.customer().referenceId());
            putIfPresent(customer, "email", request.customer().email());
            body.put("customer", customer);
        }
        return exchange("create", rest.post().uri("/api/v1/payments")
                .contentType(MediaType.APPLICATION_JSON).body(json.writeValueAsBytes(body)), PaymentPayloadRules::fromJson);
    }

    /** GET /api/v1/payments/{id}: the current truth; empty when the PSP answers 404. */
    @Override
    public Optional<PspPayment> get(String paymentId) {
        try {
            return Optional.of(exchange("get", rest.get().uri("/api/v1/payments/{id}", paymentId),
                    PaymentPayloadRules::fromJson));
        } catch (PspRejected rejected) {
            if (rejected.status() == 404) {
                return Optional.empty();
            }
            throw new PaymentOutcomeUnknown("get answered HTTP " + rejected.status(), rejected);
        }
    }

    /**
     * The Gateway does not deduplicate on {@code referenceId}: sending the create again would be a second
     * payment, so a reconcile only looks. Nothing found proves nothing (the POST may still land).
     */
    @Override
    public Lookup reconcile(CreatePayment original) {
        return Lookup.found(lookUp(original));
    }

    /** GET /api/v1/payments?referenceId.eq=: what an ambiguous POST did. Empty means "not (yet) seen". */
    @Override
    public List<PspPayment> lookUp(CreatePayment original) {
        String referenceId = original.referenceId();
        try {
            return exchange("find", rest.get().uri(u -> u.path("/api/v1/payments")
                    .queryParam("referenceId.eq", "{ref}").build(referenceId)), GatewayClient::list);
        } catch (PspRejected rejected) {
            // a refused look-up teaches nothing about the payment: still unknown
            throw new PaymentOutcomeUnknown("find answered HTTP " + rejected.status(), rejected);
        }
    }

    /** The Gateway takes no key on capture or void: the operation's reference is ours alone. */
    @Override
    public PspPayment capture(String paymentId, BigDecimal amount, String referenceId) {
        Map<String, Object> body = amount == null ? Map.of() : Map.of("amount", amount.toPlainString());
        return exchange("capture", rest.post().uri("/api/v1/payments/{id}/capture", paymentId)
                .contentType(MediaType.APPLICATION_JSON).body(json.writeValueAsBytes(body)), PaymentPayloadRules::fromJson);
    }

    @Override
    public PspPayment voidPayment(String paymentId, String referenceId) {
        return exchange("void", rest.post().uri("/api/v1/payments/{id}/void", paymentId)
                .contentType(MediaType.APPLICATION_JSON).body(json.writeValueAsBytes(Map.of())),
                PaymentPayloadRules::fromJson);
    }

    /**
     * {@code GET /api/v1/payments?createdAt.gte=&createdAt.lt=&page=&size=}: one page of every payment of the
     * account created in the window, oldest first; the cursor is the 0-based page number. Counted as a
     * {@code find}. A 429 here is no refusal (nothing was asked of a payment): it is unknown, with its
     * {@code Retry-After}, for the caller to ask again.
     */
    @Override
    public ListingPage listCreated(Instant from, Instant to, String cursor, int pageSize) {
        int page = cursor == null ? 0 : Integer.parseInt(cursor);
        RestClient.RequestHeadersSpec<?> request = rest.get().uri(u -> u.path("/api/v1/payments")
                .queryParam("createdAt.gte", "{from}").queryParam("createdAt.lt", "{to}")
                .queryParam("page", page).queryParam("size", pageSize).build(from.toString(), to.toString()));
        return calls.count(PspCallMetrics.FIND, () -> classified(LISTING, request, result -> listing(result, page)));
    }

    /** The Gateway's account is the service's own: every payment it lists is ours to reconcile. */
    @Override
    public boolean listsOnlyOurs() {
        return true;
    }

    /** One page: {@code {items, page, hasNext}}; one payment that cannot be booked fails the page. */
    private static ListingPage listing(JsonNode result, int asked) {
        JsonNode items = result.get("items");
        if (items == null || !items.isArray() || result.path("page").asInt(-1) != asked) {
            throw new IllegalArgumentException("listing result is not page " + asked + " of items");
        }
        List<PspPayment> payments = new ArrayList<>();
        items.forEach(node -> payments.add(PaymentPayloadRules.fromJson(node)));
        boolean hasNext = result.path("hasNext").asBoolean(false);
        return new ListingPage(payments, hasNext && !payments.isEmpty() ? Integer.toString(asked + 1) : null);
    }

    /** One call, counted by how it ended ({@link PspCallMetrics#count}). */
    private <T> T exchange(String operation, RestClient.RequestHeadersSpec<?> request, Function<JsonNode, T> reader) {
        return calls.count(operation, () -> classified(operation, request, reader));
    }

    private <T> T classified(String operation, RestClient.RequestHeadersSpec<?> request,
            Function<JsonNode, T> reader) {
        try {
            return request.exchange((req, response) -> {
                int status = response.getStatusCode().value();
                byte[] body = readBounded(response.getBody());
                if (LISTING.equals(operation) && (status == 429 || status >= 500)) {
                    throw new PaymentOutcomeUnknown(operation + " answered HTTP " + status,
                            PaymentOutcomeUnknown.retryAfter(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)));
                }
                if (status >= 400 && status < 500) {
                    JsonNode error = tryParse(body);
                    throw new PspRejected(status, field(error, "errorCode"), field(error, "errorMessage"));
                }
                if (status < 200 || status >= 300) {
                    throw new PaymentOutcomeUnknown(operation + " answered HTTP " + status);
                }
                MediaType type = response.getHeaders().getContentType();
                if (type == null || !(type.isCompatibleWith(MediaType.APPLICATION_JSON)
                        || type.getSubtype().endsWith("+json"))) {
                    throw new PaymentOutcomeUnknown(operation + " answered " + status + " with content type " + type);
                }
                JsonNode result = json.readTree(body).get("result");
                if (result == null || result.isNull()) {
                    throw new PaymentOutcomeUnknown(operation + " answered without a result");
                }
                return reader.apply(result);
            }, true);
        } catch (PspRejected | PaymentOutcomeUnknown classified) {
            throw classified;
        } catch (PaymentPayloadFault fault) {
            throw unbookable(operation, fault);
        } catch (RuntimeException unclassified) {
            if (unclassified.getCause() instanceof PaymentPayloadFault fault) {
                throw unbookable(operation, fault);
            }
            // timeouts, resets, truncated or undecodable bodies, anything new a library upgrade brings
            Throwable cause = unclassified.getCause() instanceof PspRejected
                    || unclassified.getCause() instanceof PaymentOutcomeUnknown ? unclassified.getCause() : null;
            if (cause != null) {
                throw (RuntimeException) cause;
            }
            log.warn("psp {} outcome unknown: {}", operation, unclassified.getClass().getSimpleName());
            throw new PaymentOutcomeUnknown(operation + " failed: " + unclassified.getClass().getSimpleName(),
                    unclassified);
        }
    }

    private PaymentOutcomeUnknown unbookable(String operation, PaymentPayloadFault fault) {
        faults.fault(PayloadFaultMetrics.ANSWER, fault);
        log.warn("psp {} answered a payment that cannot be booked ({}: {}); left for the next pass", operation,
                fault.kind().slug(), fault.getMessage());
        return new PaymentOutcomeUnknown(operation + " answered a payment that cannot be booked: " + fault.getMessage(),
                fault);
    }

    /** One payment that cannot be booked fails the whole list: a look-up must never miss the real one. */
    private static List<PspPayment> list(JsonNode result) {
        if (!result.isArray()) {
            throw new IllegalArgumentException("find result is not a list");
        }
        List<PspPayment> payments = new ArrayList<>();
        result.forEach(node -> payments.add(PaymentPayloadRules.fromJson(node)));
        return payments;
    }

    private static byte[] readBounded(InputStream in) throws IOException {
        if (in == null) {
            return new byte[0];
        }
        byte[] body = in.readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            throw new IOException("PSP body larger than " + MAX_BODY + " bytes");
        }
        return body;
    }

    private JsonNode tryParse(byte[] body) {
        try {
            return json.readTree(body);
        } catch (RuntimeException notJson) {
            return null; // any 4xx body shape is tolerated
        }
    }

    private static String field(JsonNode error, String name) {
        if (error == null) {
            return null;
        }
        JsonNode value = error.path("result").path(name);
        if (value.isMissingNode() || value.isNull()) {
            value = error.path(name);
        }
        return value.isValueNode() && !value.isNull() ? value.asString() : null;
    }

    private static void putIfPresent(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }
}
