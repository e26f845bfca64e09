package com.acme.payments.secondcharge;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.Backoff;
import com.acme.payments.sweep.Schedules;
import com.acme.payments.sweep.Shutdown;
import com.acme.payments.sweep.SweepProperties;
import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.refund.SecondChargeRefunds;

import java.time.Clock;

/**
 * With {@code payments.duplicates.auto-refund}, refunds second charges nobody asked to refund yet — through
 * the same claim as the operator's call ({@link SecondChargeRefunds}), so it never adds a second refund.
 * Their refunds, once claimed, are refunds like any other: swept, polled and abandoned by the refund
 * feature. Runs on {@code payments.sweep.*}.
 */
@Component
public class DuplicateChargeSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(DuplicateChargeSweeper.class);

    private final DuplicateChargeStore duplicates;
    private final SecondChargeRefunds refunds;
    private final DuplicateChargeProperties duplicateProperties;
    private final SweepProperties properties;
    private final Shutdown shutdown;
    private final Backoff backoff;

    DuplicateChargeSweeper(DuplicateChargeStore duplicates, SecondChargeRefunds refunds,
            DuplicateChargeProperties duplicateProperties, SweepProperties properties, Shutdown shutdown,
            Clock clock) {
        this.duplicates = duplicates;
        this.refunds = refunds;
        this.duplicateProperties = duplicateProperties;
        this.properties = properties;
        this.shutdown = shutdown;
        this.backoff = Backoff.forJob(clock, properties.interval());
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.guarded(registrar, properties.enabled(), properties.interval(), properties.initialDelay(), backoff,
                shutdown, this, "sweep");
    }

    public void sweep() {
        if (!duplicateProperties.autoRefund()) {
            return;
        }
        for (DuplicateCharge charge : duplicates.neverRefunded(properties.batchSize())) {
            if (shutdown.stopping()) {
                break;
            }
            autoRefund(charge);
        }
    }

    private void autoRefund(DuplicateCharge charge) {
        try {
            refunds.refund(charge.toRefund(), "auto-refund", null);
        } catch (ApiProblem stillOpen) {
            log.info("auto refund of duplicate charge payment={}: {}", charge.pspPaymentId(), stillOpen.getMessage());
        } catch (RuntimeException failed) {
            log.warn("auto refund of duplicate charge payment={} failed: {}", charge.pspPaymentId(), failed.toString());
        }
    }
}
