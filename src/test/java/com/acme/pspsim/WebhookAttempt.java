package com.acme.pspsim;

import java.time.Instant;

/**
 * One webhook delivery attempt and how the receiver answered it.
 *
 * @param note {@code delivery}, {@code duplicate}, {@code stale} (out-of-order copy) or {@code suppressed}
 * @param status the receiver's HTTP status; null when it was not reached (see {@code error}) or suppressed
 */
record WebhookAttempt(long seq, String paymentId, String referenceId, String paymentType, String state,
        String url, String note, String signature, Integer status, String error, String body, Instant startedAt,
        Instant finishedAt) {
}
