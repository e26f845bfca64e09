package com.acme.payments.books;

/** The answer to a start: the run's id and {@code running}. */
record ReconciliationStarted(String id, String state) {
}
