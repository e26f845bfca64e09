package com.acme.payments.outbox;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The outbox relay's settings ({@code payments.outbox.*}). Sink URLs are optional: a kind whose sink
 * is not configured stays pending (never dead, never dropped) and shows in the
 * {@code payments.outbox.unroutable} gauge.
 *
 * @param enabled whether this instance runs the relay
 * @param interval pause between two relay polls
 * @param batchSize rows claimed per poll
 * @param concurrency sink calls in flight at once per instance
 * @param lease how long a claimed row is hidden from other relays; at least twice one sink call
 * @param maxAttempts delivery attempts before a row is parked as dead; 0: no count limit (the retry horizon rules)
 * @param backoff delay before the first retry (doubles per attempt, with jitter)
 * @param maxBackoff cap of the retry delay
 * @param retryHorizon how long a failing delivery is retried, from its first failed try, before it is parked as dead
 * @param metricsRefresh refresh period of the outbox gauges (read from the database)
 * @param recordWithin longest wait between a sink's 2xx and the write that records it: a batch's
 *        acceptances are written together when its calls have all answered, and at least this often
 *        while some still run (the resend window, docs/outbox.md)
 * @param sinks where each effect kind goes, and the call timeouts
 * @param prune deletion of delivered rows and old dedup records
 */
@Validated
@ConfigurationProperties("payments.outbox")
public record OutboxProperties(@DefaultValue("true") Boolean enabled,
        @DefaultValue("1s") @DurationMin(millis = 1) Duration interval,
        @DefaultValue("100") @Min(1) @Max(1000) Integer batchSize,
        @DefaultValue("4") @Min(1) @Max(64) Integer concurrency,
        @DefaultValue("60s") @DurationMin(millis = 1) Duration lease,
        @DefaultValue("0") @Min(0) Integer maxAttempts,
        @DefaultValue("1s") @DurationMin(millis = 1) Duration backoff,
        @DefaultValue("1h") @DurationMin(millis = 1) Duration maxBackoff,
        @DefaultValue("3d") @DurationMin(millis = 1) Duration retryHorizon,
        @DefaultValue("5s") @DurationMin(millis = 1) Duration metricsRefresh,
        @DefaultValue("100ms") @DurationMin(millis = 1) Duration recordWithin,
        @DefaultValue @Valid Sinks sinks, @DefaultValue @Valid Prune prune) {

    /** A row's lease must outlive one sink call, or a slow call would always lose its lease. */
    @AssertTrue(message = "payments.outbox.lease must be at least twice the sink connect + read timeout")
    public boolean isLeaseAtLeastTwoSinkCalls() {
        return lease == null || sinks == null || sinks.connectTimeout() == null || sinks.readTimeout() == null
                || lease.compareTo(sinks.callBudget().multipliedBy(2)) >= 0;
    }

    /**
     * Where each effect kind goes, and how long one call may take.
     *
     * @param notifyUrl the notification sink ({@code NOTIFY_SINK_URL}); unset: those kinds wait
     * @param conversionUrl the conversion sink ({@code CONVERSION_SINK_URL}); unset: those kinds wait
     * @param fulfilmentUrl the fulfilment sink of {@code order_paid} ({@code FULFILMENT_SINK_URL}); unset: it waits
     * @param connectTimeout connect timeout of one sink call
     * @param readTimeout read timeout of one sink call
     * @param notifySecret signing secret of the notification sink's {@code Payments-Signature}
     *        ({@code NOTIFY_SINK_SECRET}); blank: its deliveries are not signed; never logged; several,
     *        comma-separated, while it rolls: one {@code v1=} each, in that order (the three secrets alike)
     * @param conversionSecret signing secret of the conversion sink ({@code CONVERSION_SINK_SECRET})
     * @param fulfilmentSecret signing secret of the fulfilment sink ({@code FULFILMENT_SINK_SECRET})
     * @param shopEventsUrl the shop's one events endpoint ({@code SHOP_EVENTS_URL}): payment, refund and
     *        dispute events, Standard Webhooks; unset: no event is written at all
     * @param shopEventsSecret the Standard Webhooks secret of the events endpoint ({@code SHOP_EVENTS_SECRET}),
     *        {@code whsec_<base64>}; several, comma-separated, while it rolls: one {@code v1,} signature each;
     *        blank: unsigned; never logged
     */
    public record Sinks(String notifyUrl, String conversionUrl, String fulfilmentUrl,
            @DefaultValue("2s") @DurationMin(millis = 1) Duration connectTimeout,
            @DefaultValue("10s") @DurationMin(millis = 1) Duration readTimeout, String notifySecret,
            String conversionSecret, String fulfilmentSecret, String shopEventsUrl, String shopEventsSecret) {

        /** The one line the start fails with (MissingSettingFailureAnalyzer); never the value. */
        @AssertTrue(message = "SHOP_EVENTS_SECRET is invalid: each comma-separated secret must be whsec_<base64>")
        public boolean isShopEventsSecretValid() {
            return StandardWebhookSignature.validKeys(shopEventsSecret);
        }

        /** The longest one sink call can take. */
        Duration callBudget() {
            return connectTimeout.plus(readTimeout);
        }

        @Override
        public String toString() { // never the secrets
            return "Sinks[notifyUrl=" + notifyUrl + ", conversionUrl=" + conversionUrl + ", fulfilmentUrl="
                    + fulfilmentUrl + ", shopEventsUrl=" + shopEventsUrl + ", connectTimeout=" + connectTimeout
                    + ", readTimeout=" + readTimeout + "]";
        }
    }

    /**
     * Deletion of delivered rows and old dedup records.
     *
     * @param enabled whether this instance prunes
     * @param interval pause between two prunes
     * @param retention age of a delivered row before it is deleted
     * @param dedupRetention age of a dedup record before it is deleted
     * @param batchSize rows deleted per statement
     */
    public record Prune(@DefaultValue("true") Boolean enabled,
            @DefaultValue("1h") @DurationMin(millis = 1) Duration interval,
            @DefaultValue("7d") @DurationMin(millis = 1) Duration retention,
            @DefaultValue("30d") @DurationMin(millis = 1) Duration dedupRetention,
            @DefaultValue("1000") @Min(1) Integer batchSize) {
    }
}
