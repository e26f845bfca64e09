/**
 * Retention: the one shape of every job that deletes or erases old history (docs/runbook.md, "Retention"). A feature's
 * Store owns the batched statement; the feature declares a {@link com.acme.payments.retention.RetentionJob}
 * through a {@link com.acme.payments.retention.Retainer}; {@link com.acme.payments.retention.Retentions}
 * schedules each, runs its steps in short batches and records the job's meters.
 */
package com.acme.payments.retention;
