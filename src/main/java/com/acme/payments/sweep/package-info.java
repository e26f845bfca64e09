/** Plumbing shared by the background jobs: one-pass sweep loop, backoff, metrics, database gauges, shutdown flag. */
package com.acme.payments.sweep;
