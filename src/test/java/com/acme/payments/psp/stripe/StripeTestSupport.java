package com.acme.payments.psp.stripe;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.mockito.Mockito;
import org.springframework.web.client.RestClient;

import com.acme.payments.psp.PayloadFaultMetrics;
import com.acme.payments.psp.PspCallMetrics;
import com.acme.payments.psp.PspProperties;
import com.acme.payments.psp.stripe.StripePspProperties.CaptureMethod;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/** A StripeProvider against a WireMock stand-in, with a clock the test moves and the send log in memory. */
final class StripeTestSupport {

    static final Duration READ_TIMEOUT = Duration.ofMillis(3000);
    static final int PAST_READ_TIMEOUT_MS = 4500;
    static final Duration IN_FLIGHT_AGE = Duration.ofMinutes(5);

    private StripeTestSupport() {
    }

    static StripeProvider provider(String baseUrl, MovableClock clock, MemorySends sends, Duration lifetime,
            CaptureMethod capture) {
        return provider(baseUrl, clock, sends, lifetime, capture, new SimpleMeterRegistry());
    }

    /** The same, its {@code payments.psp.calls} counted in {@code meters}. */
    static StripeProvider provider(String baseUrl, MovableClock clock, MemorySends sends, Duration lifetime,
            CaptureMethod capture, MeterRegistry meters) {
        PspProperties psp = new PspProperties(PspProperties.Provider.STRIPE, null, null, null, Duration.ofSeconds(1),
                READ_TIMEOUT, "acme-payments-test", "https://shop.test/webhooks/psp");
        return new StripeProvider(new StripePspProperties(lifetime, capture), psp, sends, RestClient.builder(),
                JsonMapper.builder().build(), Mockito.mock(PayloadFaultMetrics.class),
                new PspCallMetrics(meters), clock, "sk_test_123", baseUrl,
                IN_FLIGHT_AGE);
    }

    /** application/x-www-form-urlencoded → its parameters in order. */
    static Map<String, String> form(String body) {
        Map<String, String> params = new LinkedHashMap<>();
        if (body == null || body.isEmpty()) {
            return params;
        }
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    static final class MovableClock extends Clock {
        private volatile Instant now;

        MovableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** The send log's behaviour without a database (its SQL is exercised by the integration test). */
    static final class MemorySends extends StripeSendStore {
        final Map<String, Send> rows = new ConcurrentHashMap<>();

        MemorySends() {
            super(null);
        }

        @Override
        void recordSend(String referenceId, Instant at) {
            rows.merge(referenceId, new Send(at, at, 1, false), (old, now) -> new Send(old.firstSentAt(),
                    old.lastSentAt().isAfter(at) ? old.lastSentAt() : at, old.sends() + 1, old.replayClosed()));
        }

        @Override
        boolean closeReplay(String referenceId, ReplayClosed why, Instant at) {
            Send old = rows.get(referenceId);
            if (old == null || old.replayClosed()) {
                return false;
            }
            rows.put(referenceId, new Send(old.firstSentAt(), old.lastSentAt(), old.sends(), true));
            return true;
        }

        @Override
        Optional<Send> find(String referenceId) {
            return Optional.ofNullable(rows.get(referenceId));
        }
    }
}
