package com.acme.payments.sweep;

/** Rows still waiting for a job (UNKNOWN attempts, unprocessed receipts) and the oldest one's age in seconds. */
public record OpenRows(double count, double oldestAgeSeconds) {
}
