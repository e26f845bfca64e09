package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeEvent.at;
import static com.acme.payments.stripe.StripeEvent.number;
import static com.acme.payments.stripe.StripeEvent.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.billing.SubscriptionStore.Subscription;
import com.acme.payments.stripe.StripeEvent;
import com.acme.payments.stripe.StripeEventHandler.Applied;

import tools.jackson.databind.JsonNode;

/**
 * {@code customer.subscription.updated} is diffed against the mirror and applied only where it changed,
 * never rewinding the period (an event whose item period starts before the stored one is stale).
 * {@code customer.subscription.deleted} ends access and tells the user, in one transaction.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class SubscriptionApplier {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionApplier.class);

    private final UserStore users;
    private final SubscriptionStore subscriptions;
    private final Effects effects;

    SubscriptionApplier(UserStore users, SubscriptionStore subscriptions, Effects effects) {
        this.users = users;
        this.subscriptions = subscriptions;
        this.effects = effects;
    }

    Applied updated(StripeEvent event) {
        Subscription incoming = read(event.object());
        if (incoming == null) {
            return missingUser(event);
        }
        // locked: two updates of one subscription diff against each other's commit, never a stale read
        Optional<Subscription> stored = subscriptions.lock(incoming.subscriptionId());
        if ("canceled".equals(incoming.status())) {
            // The teardown (revoke + notice) belongs to customer.subscription.deleted, in its own transaction.
            incoming = withStatus(incoming, stored.map(Subscription::status).orElse("active"));
        }
        if (stored.isEmpty()) {
            users.ensure(incoming.userId());
            subscriptions.createIfAbsent(incoming.subscriptionId(), incoming.userId(), incoming.status());
        } else {
            Subscription mirror = stored.get();
            if (mirror.currentPeriodStart() != null && incoming.currentPeriodStart() != null
                    && incoming.currentPeriodStart() < mirror.currentPeriodStart()) {
                log.info("stale subscription update ignored, eventId={} subscriptionId={} periodStart={} stored={}",
                        event.id(), incoming.subscriptionId(), incoming.currentPeriodStart(),
                        mirror.currentPeriodStart());
                return Applied.IGNORED;
            }
            List<String> changed = changes(mirror, incoming);
            if (changed.isEmpty() || "canceled".equals(mirror.status())) {
                log.info("subscription update changes nothing, eventId={} subscriptionId={}", event.id(),
                        incoming.subscriptionId());
                return Applied.IGNORED;
            }
            log.info("subscription update, eventId={} subscriptionId={} changed={}", event.id(),
                    incoming.subscriptionId(), changed);
        }
        subscriptions.apply(incoming);
        return Applied.APPLIED;
    }

    Applied deleted(StripeEvent event) {
        Subscription incoming = read(event.object());
        if (incoming == null) {
            return missingUser(event);
        }
        users.ensure(incoming.userId());
        subscriptions.createIfAbsent(incoming.subscriptionId(), incoming.userId(), "active");
        if (!subscriptions.cancel(incoming.subscriptionId())) {
            log.info("subscription already ended, eventId={} subscriptionId={}", event.id(), incoming.subscriptionId());
            return Applied.IGNORED;
        }
        effects.notice("subscription_ended_notice", event.id(), incoming.userId(), incoming.subscriptionId(), null,
                null);
        log.info("subscription ended, access revoked, eventId={} subscriptionId={}", event.id(),
                incoming.subscriptionId());
        return Applied.APPLIED;
    }

    /** The subscription as Stripe sends it: period, quantity and price on the first item. */
    private Subscription read(JsonNode subscription) {
        String id = text(subscription, "id");
        if (id == null) {
            return null;
        }
        String userId = Invoices.cleanId(text(subscription, "metadata", "userId"));
        if (userId == null) {
            userId = subscriptions.find(id).map(Subscription::userId).orElse(null);
        }
        if (userId == null) {
            return null;
        }
        JsonNode item = firstItem(subscription);
        Long start = firstOf(number(item, "current_period_start"), number(subscription, "current_period_start"));
        Long end = firstOf(number(item, "current_period_end"), number(subscription, "current_period_end"));
        Long quantity = firstOf(number(item, "quantity"), number(subscription, "quantity"));
        String status = text(subscription, "status");
        return new Subscription(id, userId, status == null ? "active" : status, start, end,
                quantity == null ? null : quantity.intValue(), text(item, "price", "id"));
    }

    private static JsonNode firstItem(JsonNode subscription) {
        JsonNode items = at(subscription, "items", "data");
        return items != null && items.isArray() && !items.isEmpty() ? items.get(0) : null;
    }

    private static List<String> changes(Subscription mirror, Subscription incoming) {
        List<String> changed = new ArrayList<>();
        if (!Objects.equals(mirror.status(), incoming.status())) {
            changed.add("status");
        }
        if (incoming.currentPeriodStart() != null
                && !Objects.equals(mirror.currentPeriodStart(), incoming.currentPeriodStart())) {
            changed.add("currentPeriodStart");
        }
        if (incoming.currentPeriodEnd() != null
                && !Objects.equals(mirror.currentPeriodEnd(), incoming.currentPeriodEnd())) {
            changed.add("currentPeriodEnd");
        }
        if (incoming.quantity() != null && !Objects.equals(mirror.quantity(), incoming.quantity())) {
            changed.add("quantity");
        }
        if (incoming.priceId() != null && !Objects.equals(mirror.priceId(), incoming.priceId())) {
            changed.add("priceId");
        }
        return changed;
    }

    private static Subscription withStatus(Subscription s, String status) {
        return new Subscription(s.subscriptionId(), s.userId(), status, s.currentPeriodStart(), s.currentPeriodEnd(),
                s.quantity(), s.priceId());
    }

    private static Long firstOf(Long a, Long b) {
        return a != null ? a : b;
    }

    private Applied missingUser(StripeEvent event) {
        log.error("subscription event for an unknown user (no metadata.userId), nothing applied, eventId={} "
                + "subscriptionId={}", event.id(), text(event.object(), "id"));
        return Applied.IGNORED;
    }
}
