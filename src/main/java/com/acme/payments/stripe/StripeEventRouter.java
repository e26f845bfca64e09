package com.acme.payments.stripe;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.springframework.stereotype.Component;

import com.acme.payments.stripe.StripeEventHandler.Applied;

/**
 * The one place that decides which {@link StripeEventHandler} applies an event. One Stripe account sends
 * every event to one endpoint: billing's and, with Stripe as the PSP, the payments' (docs/providers.md).
 * Handlers are asked in their {@code @Order}; the first that handles the type and {@link
 * StripeEventHandler#owns owns} the event applies it, inside the event's transaction, after the same
 * signature check and claim as any other. An event no handler owns is read and deliberately ignored.
 */
@Component
class StripeEventRouter {

    private final List<StripeEventHandler> handlers;
    private final Set<String> types;

    StripeEventRouter(List<StripeEventHandler> handlers) {
        this.handlers = List.copyOf(handlers);
        Set<String> all = new LinkedHashSet<>();
        handlers.forEach(handler -> all.addAll(handler.handledTypes()));
        this.types = Set.copyOf(all);
    }

    /** Every type some handler applies; the others are answered 200 without a claim. */
    Set<String> handledTypes() {
        return types;
    }

    /** Runs inside the event's transaction: ownership is read there, with the rows it decides on. */
    Applied apply(StripeEvent event) {
        return owner(event).map(handler -> handler.apply(event)).orElse(Applied.IGNORED);
    }

    /** The first handler, in {@code @Order}, that takes the event's type and owns it; inside a transaction. */
    Optional<StripeEventHandler> owner(StripeEvent event) {
        return handlers.stream().filter(handler -> handler.handledTypes().contains(event.type()) && handler.owns(event))
                .findFirst();
    }
}
