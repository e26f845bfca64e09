package com.acme.pspsim;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * Sends signed webhooks (the payment object, signed over the raw bytes) on a small executor, after
 * the answer of the call that caused them, and records every attempt with the receiver's answer.
 * Webhook faults (twice, late, out of order, before the response, never) are applied here.
 * There is no redelivery: the service must not depend on one.
 */
@Component
class WebhookSender implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(WebhookSender.class);

    private final SimulatorProperties properties;
    private final FaultBook faults;
    private final JsonMapper json;
    private final Clock clock;
    private final HttpClient http;
    /** One single-threaded lane per stripe of payment ids: a payment's webhooks leave in the order they were made. */
    private final ScheduledExecutorService[] lanes;
    private final List<WebhookAttempt> attempts = new CopyOnWriteArrayList<>();
    private final AtomicLong sequence = new AtomicLong();

    WebhookSender(SimulatorProperties properties, FaultBook faults, SimJson json, Clock clock) {
        this.properties = properties;
        this.faults = faults;
        this.json = json.mapper();
        this.clock = clock;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.webhookTimeout()).build();
        this.lanes = new ScheduledExecutorService[Math.max(1, properties.webhookThreads())];
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "pspsim-webhook");
                t.setDaemon(true);
                return t;
            });
        }
    }

    /**
     * Announces the payment's current state to its {@code webhookUrl}.
     *
     * @param beforeResponse deliver (and wait for the receiver's answer) before the current call answers
     */
    void announce(Payment payment, boolean beforeResponse) {
        if (payment.webhookUrl() == null || payment.webhookUrl().isBlank()) {
            return;
        }
        CallPlan plan = faults.plan("webhook", payment);
        if (plan.has(Fault.WEBHOOK_NEVER)) {
            record(payment, "suppressed", null, null, null, clock.instant());
            log.info("webhook suppressed paymentId={} state={}", payment.id(), payment.state());
            return;
        }
        Runnable delivery = () -> {
            byte[] body = json.writeValueAsBytes(payment.view());
            deliver(payment, body, "delivery");
            if (plan.has(Fault.WEBHOOK_TWICE)) {
                deliver(payment, body, "duplicate");
            }
            plan.first(Fault.WEBHOOK_OUT_OF_ORDER).ifPresent(rule -> {
                Payment stale = payment.withState(staleState(rule, payment), payment.updatedAt());
                deliver(stale, json.writeValueAsBytes(stale.view()), "stale");
            });
        };
        long delay = plan.first(Fault.WEBHOOK_LATE).map(r -> r.delayOr(0)).orElse(0L);
        if ((beforeResponse || plan.has(Fault.WEBHOOK_BEFORE_RESPONSE)) && delay == 0) {
            delivery.run();
        } else {
            ScheduledExecutorService lane = lanes[Math.floorMod(payment.id().hashCode(), lanes.length)];
            AfterResponse.run(() -> lane.schedule(delivery, delay, TimeUnit.MILLISECONDS));
        }
    }

    List<WebhookAttempt> attempts() {
        return List.copyOf(attempts);
    }

    void clear() {
        attempts.clear();
    }

    private static String staleState(FaultRule rule, Payment payment) {
        if (rule.state() != null) {
            return rule.state();
        }
        return Payment.AUTHORIZED.equals(payment.state()) ? "PENDING" : Payment.AUTHORIZED;
    }

    private void deliver(Payment payment, byte[] body, String note) {
        String signature = Signatures.sign(body, properties.signingKey(), properties.signatureEncoding());
        Instant started = clock.instant();
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(payment.webhookUrl()))
                    .timeout(properties.webhookTimeout())
                    .header("Content-Type", "application/json")
                    .header("User-Agent", "acme-pspsim/1.0")
                    .header("Signature", signature)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            record(payment, note, signature, response.statusCode(), null, started, body);
            log.info("webhook {} paymentId={} state={} answered {}", note, payment.id(), payment.state(),
                    response.statusCode());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            record(payment, note, signature, null, "interrupted", started, body);
        } catch (Exception e) {
            record(payment, note, signature, null, e.getClass().getSimpleName() + ": " + e.getMessage(), started,
                    body);
            log.info("webhook {} paymentId={} state={} failed: {}", note, payment.id(), payment.state(),
                    e.toString());
        }
    }

    private void record(Payment p, String note, String signature, Integer status, String error, Instant started) {
        record(p, note, signature, status, error, started, null);
    }

    private void record(Payment p, String note, String signature, Integer status, String error, Instant started,
            byte[] body) {
        attempts.add(new WebhookAttempt(sequence.incrementAndGet(), p.id(), p.referenceId(), p.paymentType(),
                p.state(), p.webhookUrl(), note, signature, status, error,
                body == null ? null : new String(body, StandardCharsets.UTF_8), started, clock.instant()));
    }

    @Override
    public void destroy() {
        for (ScheduledExecutorService lane : lanes) {
            lane.shutdownNow();
        }
    }
}
