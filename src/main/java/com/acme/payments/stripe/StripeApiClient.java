package com.acme.payments.stripe;

import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import com.acme.payments.common.web.ApiProblem;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads subscriptions and their paid invoices from the Stripe API ({@code STRIPE_API_BASE}, default
 * https://api.stripe.com, bearer {@code STRIPE_API_KEY}). Read-only: reconciliation never writes to
 * Stripe. Answers stay JSON trees, read by the same paths as webhook payloads.
 */
@Component
public class StripeApiClient {

    private static final int PAGE = 100;
    private static final int MAX_PAGES = 50;

    private final StripeProperties properties;
    private final RestClient http;
    private final JsonMapper json;

    StripeApiClient(StripeProperties properties, RestClient.Builder builder, JsonMapper json) {
        this.properties = properties;
        this.json = json;
        JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.apiTimeout())
                .build());
        factory.setReadTimeout(properties.apiTimeout());
        this.http = builder.clone()
                .baseUrl(properties.apiBase())
                .requestFactory(factory)
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
        if (!properties.apiConfigured()) {
            throw new StripeApiNotConfigured();
        }
        byte[] body;
        try {
            body = http.get().uri(uri, variables)
                    .header(HttpHeaders.AUTHORIZATION, "Bearer " + properties.apiKey())
                    .retrieve()
                    .body(byte[].class);
        } catch (HttpClientErrorException.NotFound e) {
            throw e;
        } catch (RestClientException e) {
            throw new StripeApiUnavailable();
        }
        try {
            return json.readTree(body == null ? new byte[0] : body);
        } catch (JacksonException e) {
            throw new StripeApiUnavailable();
        }
    }

    /** STRIPE_API_KEY is not set: reconciliation cannot run. */
    public static final class StripeApiNotConfigured extends ApiProblem {
        StripeApiNotConfigured() {
            super(HttpStatus.INTERNAL_SERVER_ERROR, "stripe-api-not-configured", "Stripe API not configured",
                    "The Stripe API key is not configured on this service.");
        }
    }

    /** Stripe did not answer, or answered with an error or an unreadable body. */
    public static final class StripeApiUnavailable extends ApiProblem {
        StripeApiUnavailable() {
            super(HttpStatus.BAD_GATEWAY, "stripe-api-unavailable", "Stripe API unavailable",
                    "The Stripe API could not be read; try again later.");
        }
    }
}
