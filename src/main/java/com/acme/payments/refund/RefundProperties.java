package com.acme.payments.refund;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Refund settings ({@code payments.refunds.*}), each default written once here. The Retry-After of a
 * refund whose outcome is not known yet ({@code retryAfter}), of a new refund refused while another of
 * the order's is UNKNOWN ({@code blockedRetryAfter}: the sweep has to settle that one first, so longer),
 * and how often the reserved-amount gauge is re-read from the database. The sweep is the shared
 * {@code payments.sweep.*}.
 */
@ConfigurationProperties("payments.refunds")
record RefundProperties(Duration retryAfter, Duration blockedRetryAfter, Duration gaugeRefresh) {

    RefundProperties {
        retryAfter = retryAfter == null ? Duration.ofSeconds(10) : retryAfter;
        blockedRetryAfter = blockedRetryAfter == null ? Duration.ofSeconds(30) : blockedRetryAfter;
        gaugeRefresh = gaugeRefresh == null ? Duration.ofSeconds(15) : gaugeRefresh;
    }
}
