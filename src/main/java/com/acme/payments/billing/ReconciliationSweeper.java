package com.acme.payments.billing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The nightly repair: reconciles every subscription that has not ended. A failure on one subscription
 * is logged and does not stop the others. Off when {@code billing.reconciliation.enabled} is false.
 */
@Component
class ReconciliationSweeper {

    private static final Logger log = LoggerFactory.getLogger(ReconciliationSweeper.class);

    private final ReconciliationOrchestrator reconciliation;
    private final SubscriptionStore subscriptions;
    private final BillingProperties properties;

    ReconciliationSweeper(ReconciliationOrchestrator reconciliation, SubscriptionStore subscriptions,
            BillingProperties properties) {
        this.reconciliation = reconciliation;
        this.subscriptions = subscriptions;
        this.properties = properties;
    }

    @Scheduled(cron = "${billing.reconciliation.cron:0 17 3 * * *}", zone = "UTC")
    void nightly() {
        if (properties.reconciliation().enabled()) {
            run();
        }
    }

    /** One pass over the open subscriptions; returns how many periods were granted. */
    int run() {
        int granted = 0;
        int failed = 0;
        for (String subscriptionId : subscriptions.openIds()) {
            try {
                granted += reconciliation.sync(subscriptionId).size();
            } catch (RuntimeException e) {
                failed++;
                log.warn("reconciliation failed, subscriptionId={} error={}", subscriptionId,
                        e.getClass().getSimpleName());
            }
        }
        log.info("nightly reconciliation done, granted={} failed={}", granted, failed);
        return granted;
    }
}
