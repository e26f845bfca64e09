package com.acme.payments.stripe;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.springframework.http.HttpHeaders;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.UriBuilder;

import com.acme.payments.common.http.ByteArrayJdkRequestFactory;
import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads subscriptions, their paid invoices and the invoice of a payment from the Stripe API
 * ({@code STRIPE_API_BASE}, default https://api.stripe.com, bearer {@code STRIPE_API_KEY}). Read-only:
 * nothing here writes to Stripe, so a GET that met a network error, a 429 or a 5xx is simply sent
 * again (twice at most). Every call carries {@link #API_VERSION}: the answers' shape is the one the
 * billing code was written against, whatever the account's default version. Answers stay JSON trees,
 * read by the same paths as webhook payloads.
 */
@Component
public class StripeApiClient {

    /** The API version of every call, pinned in code with the paths that read its answers. */
    public static final String API_VERSION = "2025-08-27.basil";
    /** The setting without which nothing here can be called, as a {@code not-configured} problem names it. */
    public static final String API_KEY_SETTING = "STRIPE_API_KEY";
    private static final int PAGE = 100;
    private static final int MAX_PAGES = 50;
    /** A page of 100 invoices is well under this; a larger answer is a failure (retried, then 502). */
    private static final int MAX_BODY = 16 << 20;

    private final StripeProperties properties;
    private final RestClient http;
    private final JsonMapper json;
    private final RetryTemplate retry = new RetryTemplate(RetryPolicy.builder()
            .maxRetries(2)
            .delay(Duration.ofMillis(200))
            .multiplier(2)
            .jitter(Duration.ofMillis(100))
            .predicate(StripeApiClient::worthRetrying)
            .build());

    StripeApiClient(StripeProperties properties, RestClient.Builder builder, JsonMapper json) {
        this.properties = properties;
        this.json = json;
        // pooled keep-alive connections, no thread per call (see ByteArrayJdkRequestFactory)
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.apiTimeout())
                .executor(ByteArrayJdkRequestFactory.daemonPool("stripe-http-", 2))
                .build();
        this.http = builder.clone()
                .baseUrl(properties.apiBase())
                .requestFactory(new ByteArrayJdkRequestFactory(client, properties.apiTimeout(), MAX_BODY,
                        ByteArrayJdkRequestFactory.deadlineTimer("stripe-http-deadline-")))
                .build();
    }

    /** The subscription, or empty when Stripe does not know it. */
    public Optional<JsonNode> subscription(String subscriptionId) {
        try {
            return Optional.of(get("/v1/subscriptions/{id}", subscriptionId));
        } catch (HttpClientErrorException.NotFound e) {
            return Optional.empty();
        }
    }

    /**
     * The invoice a PaymentIntent paid, from {@code GET /v1/invoice_payments} (the link the current API
     * offers; charges no longer carry {@code invoice}); empty when it paid no invoice.
     */
    public Optional<String> invoiceOfPaymentIntent(String paymentIntentId) {
        JsonNode list = get(uri -> uri.path("/v1/invoice_payments")
                .queryParam("payment[type]", "payment_intent")
                .queryParam("payment[payment_intent]", paymentIntentId)
                .queryParam("limit", 10).build());
        String any = null;
        for (JsonNode payment : list.path("data").values()) {
            String invoice = StripeEvent.idOf(payment, "invoice");
            if (invoice != null && "paid".equals(StripeEvent.text(payment, "status"))) {
                return Optional.of(invoice);
            }
            any = any != null ? any : invoice;
        }
        return Optional.ofNullable(any);
    }

    public boolean configured() {
        return properties.apiConfigured();
    }

    /** Every paid invoice of the subscription (all billing reasons; the caller filters), oldest page first. */
    public List<JsonNode> paidInvoices(String subscriptionId) {
        List<JsonNode> invoices = new ArrayList<>();
        String after = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            JsonNode list = after == null
                    ? get("/v1/invoices?subscription={s}&status=paid&limit={n}", subscriptionId, PAGE)
                    : get("/v1/invoices?subscription={s}&status=paid&limit={n}&starting_after={a}", subscriptionId,
                            PAGE, after);
            JsonNode data = list.path("data");
            data.values().forEach(invoices::add);
            if (!list.path("has_more").asBoolean(false) || data.isEmpty()) {
                return invoices;
            }
            after = StripeEvent.text(data.get(data.size() - 1), "id");
        }
        throw new StripeApiUnavailable();
    }

    private JsonNode get(String uri, Object... variables) {
        return send(request -> request.uri(uri, variables));
    }

    private JsonNode get(Function<UriBuilder, URI> uri) {
        return send(request -> request.uri(uri));
    }

    private JsonNode send(Function<RestClient.RequestHeadersUriSpec<?>, RestClient.RequestHeadersSpec<?>> target) {
        if (!properties.apiConfigured()) {
            throw new Problems.NotConfigured(API_KEY_SETTING);
        }
        byte[] body;
        try {
            body = retry.execute(() -> target.apply(http.get())
                    .header(HttpHeaders.AUTHORIZATION, "Bearer " + properties.apiKey())
                    .header("Stripe-Version", API_VERSION)
                    .retrieve()
                    .body(byte[].class));
        } catch (RetryException e) {
            Throwable last = e.getLastException() != null ? e.getLastException() : e.getCause();
            if (last instanceof HttpClientErrorException.NotFound notFound) {
                throw notFound;
            }
            throw new StripeApiUnavailable();
        }
        try {
            return json.readTree(body == null ? new byte[0] : body);
        } catch (JacksonException e) {
            throw new StripeApiUnavailable();
        }
    }

    /** Network errors, rate limiting and Stripe's own 5xx; never another 4xx (the request itself is wrong). */
    private static boolean worthRetrying(Throwable failure) {
        return failure instanceof ResourceAccessException || failure instanceof HttpServerErrorException
                || failure instanceof HttpClientErrorException.TooManyRequests;
    }

    /** Stripe did not answer, or answered with an error or an unreadable body. */
    public static final class StripeApiUnavailable extends ApiProblem {
        StripeApiUnavailable() {
            super(ProblemType.STRIPE_API_UNAVAILABLE, "The Stripe API could not be read; try again later.");
        }
    }
}
