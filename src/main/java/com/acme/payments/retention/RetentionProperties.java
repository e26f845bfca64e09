package com.acme.payments.retention;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The retention of history that has no other home ({@code payments.retention.*}): closed PSP webhook receipts
 * and customers' e-mail addresses. Delivered and discarded outbox rows keep {@code payments.outbox.prune.*},
 * Stripe events {@code stripe.prune.*}.
 *
 * @param enabled whether this instance runs these jobs
 * @param interval pause between two passes
 * @param batchSize rows per statement (one short transaction each)
 * @param maxBatches batches per job and pass at most
 * @param inboxClosed age of a closed receipt (from its closing) before it is deleted; at least a day, so a
 *        PSP's retry of the same delivery still finds it closed
 * @param customerEmail age of an order (from its last change) before its customer's e-mail is erased
 */
@Validated
@ConfigurationProperties("payments.retention")
public record RetentionProperties(@DefaultValue("true") Boolean enabled,
        @DefaultValue("1h") @DurationMin(millis = 1) Duration interval,
        @DefaultValue("1000") @Min(1) @Max(10000) Integer batchSize,
        @DefaultValue("100") @Min(1) Integer maxBatches,
        @DefaultValue("90d") @DurationMin(days = 1) Duration inboxClosed,
        @DefaultValue("540d") @DurationMin(days = 1) Duration customerEmail) {

    /** The schedule these settings give a job. */
    public RetentionJob.Settings settings() {
        return new RetentionJob.Settings(enabled, interval, batchSize, maxBatches);
    }
}
