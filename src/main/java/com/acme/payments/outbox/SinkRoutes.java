package com.acme.payments.outbox;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Which sink URL each effect kind goes to. A sink that is not configured does not stop the service:
 * its kinds are left out of every claim, so their rows stay pending (not dead, not dropped) until the
 * URL is set and the service restarted; a start-up warning and the {@code payments.outbox.unroutable}
 * gauge say so. A kind no sink knows is treated the same way.
 */
@Component
class SinkRoutes {

    private static final Logger log = LoggerFactory.getLogger(SinkRoutes.class);

    static final List<String> NOTIFY_KINDS = List.of("renewal_notice", "payment_failed_notice",
            "subscription_ended_notice", "async_payment_failed_notice", "dispute_opened", "refund_failed",
            "duplicate_charge", "discrepancy");
    static final List<String> CONVERSION_KINDS = List.of("conversion");
    static final List<String> FULFILMENT_KINDS = List.of("order_paid");
    /** The shop's events (Standard Webhooks, {@link ShopEvents}): written only while their URL is set. */
    static final List<String> SHOP_EVENT_KINDS = ShopEvents.TYPES;

    /** Every known kind and the sink it goes to, configured or not: ordering is kept per sink. */
    private static final Map<String, String> SINK_BY_KIND = new LinkedHashMap<>();

    static {
        NOTIFY_KINDS.forEach(kind -> SINK_BY_KIND.put(kind, "notify"));
        CONVERSION_KINDS.forEach(kind -> SINK_BY_KIND.put(kind, "conversion"));
        FULFILMENT_KINDS.forEach(kind -> SINK_BY_KIND.put(kind, "fulfilment"));
        SHOP_EVENT_KINDS.forEach(kind -> SINK_BY_KIND.put(kind, "shop-events"));
    }

    private final Map<String, URI> urlByKind = new LinkedHashMap<>();
    private final Map<String, List<String>> secretsByKind = new LinkedHashMap<>();
    private final List<String> unconfiguredVariables = new ArrayList<>();
    private final List<byte[]> shopEventKeys;

    SinkRoutes(OutboxProperties properties) {
        OutboxProperties.Sinks sinks = properties.sinks();
        route(sinks.notifyUrl(), sinks.notifySecret(), "NOTIFY_SINK_URL", NOTIFY_KINDS);
        route(sinks.conversionUrl(), sinks.conversionSecret(), "CONVERSION_SINK_URL", CONVERSION_KINDS);
        route(sinks.fulfilmentUrl(), sinks.fulfilmentSecret(), "FULFILMENT_SINK_URL", FULFILMENT_KINDS);
        shopEventKeys = StandardWebhookSignature.keys(sinks.shopEventsSecret()); // validated at binding
        if (sinks.shopEventsUrl() != null && !sinks.shopEventsUrl().isBlank()) {
            // no event is written while it is unset (ShopEvents), so nothing waits for it: no warning
            urlByKind.putAll(routed(sinks.shopEventsUrl(), "SHOP_EVENTS_URL", SHOP_EVENT_KINDS));
        }
    }

    private void route(String url, String secret, String variable, List<String> kinds) {
        List<String> secrets = secrets(secret);
        if (!secrets.isEmpty()) {
            kinds.forEach(kind -> secretsByKind.put(kind, secrets));
        }
        if (url == null || url.isBlank()) {
            unconfiguredVariables.add(variable);
            log.warn("{} is not set: outbox rows of kinds {} stay pending until it is", variable, kinds);
            return;
        }
        urlByKind.putAll(routed(url, variable, kinds));
    }

    private static Map<String, URI> routed(String url, String variable, List<String> kinds) {
        URI uri;
        try {
            uri = URI.create(url.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(variable + " is not a valid URL");
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new IllegalStateException(variable + " must be an absolute http(s) URL");
        }
        Map<String, URI> routes = new LinkedHashMap<>();
        kinds.forEach(kind -> routes.put(kind, uri));
        return routes;
    }

    /** A shop event: Standard Webhooks headers instead of {@code Idempotency-Key} and {@code Payments-Signature}. */
    static boolean isShopEvent(String kind) {
        return SHOP_EVENT_KINDS.contains(kind);
    }

    /** The HMAC keys of {@code SHOP_EVENTS_SECRET}, in the order configured; empty: events go unsigned. */
    List<byte[]> shopEventKeys() {
        return shopEventKeys;
    }

    /** The kinds the relay may claim: those with a configured sink. */
    List<String> routableKinds() {
        return List.copyOf(urlByKind.keySet());
    }

    Optional<URI> urlFor(String kind) {
        return Optional.ofNullable(urlByKind.get(kind));
    }

    /**
     * The secrets that sign deliveries of this kind ({@code Payments-Signature}, one {@code v1} each, in the
     * order configured); empty: unsigned.
     */
    List<String> secretsFor(String kind) {
        return secretsByKind.getOrDefault(kind, List.of());
    }

    /** {@code "new,old"} → [new, old]: split at commas, trimmed, blanks dropped (a rolling secret holds two). */
    static List<String> secrets(String configured) {
        return configured == null ? List.of()
                : Arrays.stream(configured.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** Every known kind with its sink's name (notify, conversion, fulfilment, shop-events), configured or not. */
    static Map<String, String> sinkByKind() {
        return SINK_BY_KIND;
    }

    List<String> unconfiguredVariables() {
        return List.copyOf(unconfiguredVariables);
    }
}
