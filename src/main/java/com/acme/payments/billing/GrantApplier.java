package com.acme.payments.billing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The one grant path, shared by webhooks and reconciliation: ledger row first (the unique key decides),
 * then credits, mirror and outbox only when the row is new. Always inside the caller's transaction.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class GrantApplier {

    private static final Logger log = LoggerFactory.getLogger(GrantApplier.class);

    private final UserStore users;
    private final SubscriptionStore subscriptions;
    private final GrantStore grants;
    private final Effects effects;
    private final BillingProperties properties;
    private final MeterRegistry registry;

    GrantApplier(UserStore users, SubscriptionStore subscriptions, GrantStore grants, Effects effects,
            BillingProperties properties, MeterRegistry registry) {
        this.users = users;
        this.subscriptions = subscriptions;
        this.grants = grants;
        this.effects = effects;
        this.properties = properties;
        this.registry = registry;
        for (String source : new String[] { "checkout", "webhook", "reconciliation" }) {
            grantsCounter(source);
        }
    }

    /**
     * Grants one paid period. {@code effectSourceId} keys the outbox rows (the event id, or the invoice
     * id for reconciliation); the conversion is emitted only with an id from metadata. True when granted.
     */
    boolean grantPeriod(PeriodPayment p) {
        users.ensure(p.userId());
        subscriptions.createIfAbsent(p.subscriptionId(), p.userId(), "active");
        return grantEnsuredPeriod(p);
    }

    /**
     * {@link #grantPeriod} for a caller that ensured the user and the subscription mirror in this transaction
     * already (a paid invoice, recorded against its subscription first): two statements fewer.
     */
    boolean grantEnsuredPeriod(PeriodPayment p) {
        boolean granted = grants.recordPeriod(p.subscriptionId(), p.periodStart(), p.periodEnd(), p.source(),
                p.eventId(), p.invoiceId(), properties.creditsPerPeriod());
        subscriptions.moveForward(p.subscriptionId(), p.periodStart(), p.periodEnd(), "active");
        if (!granted) {
            log.info("period already granted, subscriptionId={} periodStart={} source={}", p.subscriptionId(),
                    p.periodStart(), p.source());
            return false;
        }
        users.addCredits(p.userId(), properties.creditsPerPeriod());
        effects.notice("renewal_notice", p.effectSourceId(), p.userId(), p.subscriptionId(), p.periodStart(), null);
        conversion(p.effectSourceId(), p.conversionEventId(), p.amountPaid(), p.currency(), p.source(),
                "subscription", p.subscriptionId());
        grantsCounter(p.source()).increment();
        log.info("period granted, subscriptionId={} userId={} periodStart={} source={} eventId={}",
                p.subscriptionId(), p.userId(), p.periodStart(), p.source(), p.eventId());
        return true;
    }

    /** The first grant of a subscription, from its paid checkout session; unique per subscription. */
    boolean grantCheckout(String eventId, String userId, String subscriptionId, String conversionEventId,
            Long amountTotal, String currency) {
        users.ensure(userId);
        subscriptions.createIfAbsent(subscriptionId, userId, "active");
        boolean granted = grants.recordCheckout(subscriptionId, eventId, properties.creditsPerPeriod());
        if (!granted) {
            log.info("checkout already granted, subscriptionId={} eventId={}", subscriptionId, eventId);
            return false;
        }
        users.addCredits(userId, properties.creditsPerPeriod());
        conversion(eventId, conversionEventId, amountTotal, currency, "webhook", "subscription", subscriptionId);
        grantsCounter("checkout").increment();
        log.info("checkout granted, subscriptionId={} userId={} eventId={}", subscriptionId, userId, eventId);
        return true;
    }

    void conversion(String sourceId, String conversionEventId, Long amount, String currency, String source,
            String aggregateType, String aggregateId) {
        if (conversionEventId == null || amount == null || currency == null) {
            log.warn("no conversion emitted: metadata.conversionEventId, amount or currency missing, sourceId={}",
                    sourceId);
            return;
        }
        effects.conversion(sourceId, conversionEventId, amount, currency,
                "reconciliation".equals(source) ? "reconciliation" : "webhook", aggregateType, aggregateId);
    }

    private Counter grantsCounter(String source) {
        return Counter.builder("billing.grants").description("Entitlement grants recorded, by source")
                .tag("source", source).register(registry);
    }

    /** A paid subscription period, as read from an invoice (webhook or Stripe API). */
    record PeriodPayment(String userId, String subscriptionId, long periodStart, long periodEnd, String source,
            String eventId, String invoiceId, String effectSourceId, String conversionEventId, Long amountPaid,
            String currency) {
    }
}
