package com.acme.payments.sweep;

import java.time.Instant;

/**
 * One checkout attempt ({@code checkout}), refund attempt ({@code refund}) or capture/void operation
 * ({@code capture}, {@code void}) that is IN_FLIGHT or UNKNOWN; {@code since} is when it was created.
 */
public record Unresolved(String kind, String referenceId, String orderRef, String state, Instant since) {
}
