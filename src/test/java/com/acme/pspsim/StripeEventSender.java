package com.acme.pspsim;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import tools.jackson.databind.json.JsonMapper;

/**
 * Makes Stripe Event objects and posts them, signed ({@code Stripe-Signature: t=…,v1=…}), to
 * {@code pspsim.stripe.webhook-url}. Like Stripe it retries an event the endpoint did not answer 2xx
 * (after {@code pspsim.stripe.webhook-retry-delays}, a new timestamp and signature each time), and it
 * applies the {@code stripe-event} fault rules: twice, late, out of order, never, before the response.
 * The events of one payment (session, its PaymentIntent, its refunds) leave in one lane, in order.
 */
@Component
class StripeEventSender implements DisposableBean {

    /** The request attribute the API controller sets: the {@code request} of the events a call causes. */
    static final String REQUEST_ATTRIBUTE = StripeEventSender.class.getName() + ".request";

    private static final Logger log = LoggerFactory.getLogger(StripeEventSender.class);

    /** One recorded delivery attempt (note: delivery, retry n, duplicate, out-of-order, suppressed, no-endpoint). */
    record Attempt(long seq, String eventId, String type, String objectId, String url, String note,
            String signature, Integer status, String error, String body, Instant startedAt, Instant finishedAt) {
    }

    private final StripeSettings settings;
    private final FaultBook faults;
    private final JsonMapper json;
    private final Clock clock;
    private final HttpClient http;
    private final Duration timeout;
    private final ScheduledExecutorService[] lanes;
    private final List<Map<String, Object>> events = new CopyOnWriteArrayList<>();
    private final List<Attempt> attempts = new CopyOnWriteArrayList<>();
    private final Map<String, List<Runnable>> held = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();

    StripeEventSender(StripeSettings settings, SimulatorProperties properties, FaultBook faults, SimJson json,
            Clock clock) {
        this.settings = settings;
        this.faults = faults;
        this.json = json.mapper();
        this.clock = clock;
        this.timeout = properties.webhookTimeout();
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
        this.lanes = new ScheduledExecutorService[Math.max(1, properties.webhookThreads())];
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "pspsim-stripe-event");
                t.setDaemon(true);
                return t;
            });
        }
    }

    /**
     * Records an event about {@code object} and sends it once the current call has answered.
     *
     * @param lane the payment the event belongs to (its session id): its events keep their order
     * @param subjects what a {@code stripe-event} rule's {@code referenceId} may name (ids, client_reference_id, …)
     * @param amount what a rule's {@code amount} is compared with (minor units), or null
     */
    Map<String, Object> emit(String type, Map<String, Object> object, String lane, Collection<String> subjects,
            Long amount) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("id", StripeIds.next("evt_"));
        event.put("object", "event");
        event.put("api_version", StripeSettings.API_VERSION);
        event.put("created", clock.instant().getEpochSecond());
        event.put("data", Map.of("object", object));
        event.put("livemode", false);
        event.put("pending_webhooks", settings.webhookUrl() == null ? 0 : 1);
        event.put("request", currentRequest());
        event.put("type", type);
        events.add(event);
        String objectId = String.valueOf(object.get("id"));
        if (settings.webhookUrl() == null) {
            record(event, "no-endpoint", null, null, null, clock.instant(), null);
            return event;
        }
        FaultRule rule = faults.takeStripe("stripe-event", subjects,
                amount == null ? null : java.math.BigDecimal.valueOf(amount), type);
        CallPlan plan = new CallPlan(rule);
        if (plan.has(Fault.WEBHOOK_NEVER)) {
            record(event, "suppressed", null, null, null, clock.instant(), null);
            log.info("stripe event suppressed id={} type={} object={}", event.get("id"), type, objectId);
            return event;
        }
        byte[] body = json.writeValueAsBytes(event);
        ScheduledExecutorService executor = lanes[Math.floorMod(lane.hashCode(), lanes.length)];
        long delay = plan.first(Fault.WEBHOOK_LATE).map(r -> r.delayOr(0)).orElse(0L);
        if (plan.has(Fault.WEBHOOK_BEFORE_RESPONSE) && delay == 0) {
            deliver(event, body, "delivery");
            if (plan.has(Fault.WEBHOOK_TWICE)) {
                deliver(event, body, "duplicate");
            }
            return event;
        }
        Runnable send;
        if (plan.has(Fault.WEBHOOK_OUT_OF_ORDER)) {
            // held back until the next event of this payment has gone (or delayMs passed), so it arrives after it
            Runnable late = () -> deliverWithRetries(executor, event, body, 0, "out-of-order");
            send = () -> {
                held.computeIfAbsent(lane, k -> new ArrayList<>()).add(late);
                executor.schedule(() -> release(lane, late), plan.rule().delayOr(2000), TimeUnit.MILLISECONDS);
            };
        } else {
            send = () -> {
                deliverWithRetries(executor, event, body, 0, "delivery");
                if (plan.has(Fault.WEBHOOK_TWICE)) {
                    deliver(event, body, "duplicate");
                }
                List<Runnable> waiting = held.remove(lane);
                if (waiting != null) {
                    waiting.forEach(Runnable::run);
                }
            };
        }
        AfterResponse.run(() -> executor.schedule(send, delay, TimeUnit.MILLISECONDS));
        return event;
    }

    private void release(String lane, Runnable late) {
        List<Runnable> waiting = held.get(lane);
        if (waiting != null && waiting.remove(late)) {
            late.run();
        }
    }

    private void deliverWithRetries(ScheduledExecutorService executor, Map<String, Object> event, byte[] body,
            int attempt, String note) {
        boolean ok = deliver(event, body, attempt == 0 ? note : "retry " + attempt);
        List<Duration> delays = settings.webhookRetryDelays();
        if (!ok && attempt < delays.size()) {
            executor.schedule(() -> deliverWithRetries(executor, event, body, attempt + 1, note),
                    delays.get(attempt).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One POST; true when the endpoint answered 2xx. */
    private boolean deliver(Map<String, Object> event, byte[] body, String note) {
        long t = clock.instant().getEpochSecond();
        String signature = "t=" + t + ",v1=" + HexFormat.of().formatHex(sign(settings.webhookSecret(), t, body));
        Instant started = clock.instant();
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(settings.webhookUrl())).timeout(timeout)
                    .header("Content-Type", "application/json; charset=utf-8")
                    .header("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
                    .header("Stripe-Signature", signature)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            record(event, note, signature, response.statusCode(), null, started, body);
            log.info("stripe event {} id={} type={} answered {}", note, event.get("id"), event.get("type"),
                    response.statusCode());
            return response.statusCode() / 100 == 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            record(event, note, signature, null, "interrupted", started, body);
            return false;
        } catch (Exception e) {
            record(event, note, signature, null, e.getClass().getSimpleName() + ": " + e.getMessage(), started, body);
            log.info("stripe event {} id={} type={} failed: {}", note, event.get("id"), event.get("type"), e.toString());
            return false;
        }
    }

    /** HMAC-SHA256 of {@code "<t>." + body} with the endpoint secret: Stripe's {@code v1} scheme. */
    static byte[] sign(String secret, long t, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    private static Map<String, Object> currentRequest() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        Object request = attributes == null ? null
                : attributes.getAttribute(REQUEST_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        if (request instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) map);
            return copy;
        }
        Map<String, Object> none = new LinkedHashMap<>();
        none.put("id", null);
        none.put("idempotency_key", null);
        return none;
    }

    private void record(Map<String, Object> event, String note, String signature, Integer status, String error,
            Instant started, byte[] body) {
        @SuppressWarnings("unchecked")
        Object objectId = ((Map<String, Object>) ((Map<String, Object>) event.get("data")).get("object")).get("id");
        attempts.add(new Attempt(sequence.incrementAndGet(), (String) event.get("id"), (String) event.get("type"),
                String.valueOf(objectId), settings.webhookUrl(), note, signature, status, error,
                body == null ? null : new String(body, StandardCharsets.UTF_8), started, clock.instant()));
    }

    List<Map<String, Object>> events() {
        return List.copyOf(events);
    }

    List<Attempt> attempts() {
        return List.copyOf(attempts);
    }

    void clear() {
        events.clear();
        attempts.clear();
        held.clear();
    }

    @Override
    public void destroy() {
        for (ScheduledExecutorService lane : lanes) {
            lane.shutdownNow();
        }
    }
}
