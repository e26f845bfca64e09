package com.acme.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeEventHandler.Applied;

import tools.jackson.databind.json.JsonMapper;

/** The one place that decides which handler applies a Stripe event. */
class StripeEventRouterTests {

    private final List<String> applied = new ArrayList<>();

    private StripeEventHandler handler(String name, Set<String> types, Predicate<StripeEvent> owns) {
        return new StripeEventHandler() {
            @Override
            public Set<String> handledTypes() {
                return types;
            }

            @Override
            public boolean owns(StripeEvent event) {
                return owns.test(event);
            }

            @Override
            public Applied apply(StripeEvent event) {
                applied.add(name + ":" + event.id());
                return Applied.APPLIED;
            }
        };
    }

    private static StripeEvent event(String id, String type, String attempt) {
        String object = attempt == null ? "{}" : "{\"metadata\":{\"attempt\":\"" + attempt + "\"}}";
        return new StripeEvent(id, type, 0, JsonMapper.builder().build().readTree(object));
    }

    /** Billing keeps the default ownership (every event of its types) and is asked last. */
    private final StripeEventHandler billing = new StripeEventHandler() {
        @Override
        public Set<String> handledTypes() {
            return Set.of("checkout.session.completed", "charge.refunded");
        }

        @Override
        public Applied apply(StripeEvent event) {
            applied.add("billing:" + event.id());
            return Applied.APPLIED;
        }
    };

    @Test
    void theFirstHandlerThatOwnsTheEventAppliesItAndBillingTakesTheRest() {
        StripeEventRouter router = new StripeEventRouter(List.of(
                handler("payments", Set.of("checkout.session.completed", "refund.created"),
                        e -> e.text("metadata", "attempt") != null),
                billing));

        router.apply(event("evt_1", "checkout.session.completed", "att-1"));
        router.apply(event("evt_2", "checkout.session.completed", null));
        router.apply(event("evt_3", "charge.refunded", "att-1")); // not a type payments take

        assertThat(applied).containsExactly("payments:evt_1", "billing:evt_2", "billing:evt_3");
    }

    @Test
    void theHandledTypesAreEveryHandlersAndAnEventNoHandlerOwnsIsIgnored() {
        StripeEventRouter router = new StripeEventRouter(List.of(
                handler("payments", Set.of("refund.created"), e -> false), billing));

        assertThat(router.handledTypes())
                .containsExactlyInAnyOrder("checkout.session.completed", "charge.refunded", "refund.created");
        assertThat(router.apply(event("evt_4", "refund.created", null))).isEqualTo(Applied.IGNORED);
        assertThat(applied).isEmpty();
    }

    @Test
    void withBillingAloneEveryEventOfItsTypesIsBillings() {
        StripeEventRouter router = new StripeEventRouter(List.of(billing));

        assertThat(router.handledTypes()).isEqualTo(billing.handledTypes());
        router.apply(event("evt_5", "checkout.session.completed", "att-1"));
        assertThat(applied).containsExactly("billing:evt_5");
    }
}
