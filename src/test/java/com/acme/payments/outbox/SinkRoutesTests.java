package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.BoundSettings;

class SinkRoutesTests {

    private static OutboxProperties sinks(String notify, String conversion, String fulfilment) {
        Map<String, String> values = new HashMap<>();
        if (notify != null) {
            values.put("payments.outbox.sinks.notify-url", notify);
        }
        if (conversion != null) {
            values.put("payments.outbox.sinks.conversion-url", conversion);
        }
        if (fulfilment != null) {
            values.put("payments.outbox.sinks.fulfilment-url", fulfilment);
        }
        return BoundSettings.bind(OutboxProperties.class, "payments.outbox", values);
    }

    @Test
    void eachKindGoesToItsSink() {
        SinkRoutes routes = new SinkRoutes(sinks("http://n.test/notify", "https://c.test/c", "http://f.test/f"));
        for (String kind : SinkRoutes.NOTIFY_KINDS) {
            assertThat(routes.urlFor(kind)).contains(URI.create("http://n.test/notify"));
        }
        assertThat(routes.urlFor("conversion")).contains(URI.create("https://c.test/c"));
        assertThat(routes.urlFor("order_paid")).contains(URI.create("http://f.test/f"));
        assertThat(routes.routableKinds()).hasSize(SinkRoutes.NOTIFY_KINDS.size() + 2); // + conversion, order_paid
        assertThat(routes.unconfiguredVariables()).isEmpty();
    }

    @Test
    void aMissingSinkLeavesItsKindsOutOfEveryClaimWithoutFailingTheStart() {
        SinkRoutes routes = new SinkRoutes(sinks("", null, "http://f.test/f"));
        assertThat(routes.routableKinds()).containsExactly("order_paid");
        assertThat(routes.urlFor("renewal_notice")).isEmpty();
        assertThat(routes.urlFor("conversion")).isEmpty();
        assertThat(routes.unconfiguredVariables()).containsExactly("NOTIFY_SINK_URL", "CONVERSION_SINK_URL");
    }

    @Test
    void aMalformedSinkUrlFailsTheStartNamingTheVariableButNotTheValue() {
        assertThatThrownBy(() -> new SinkRoutes(sinks("ftp://secret@n.test/x", null, null)))
                .hasMessage("NOTIFY_SINK_URL must be an absolute http(s) URL");
    }

    @Test
    void shopEventsGoToTheirOwnSinkAndNeedNoUrlToStart() {
        SinkRoutes without = new SinkRoutes(sinks("http://n.test/notify", null, null));
        assertThat(without.routableKinds()).doesNotContainAnyElementsOf(ShopEvents.TYPES);
        assertThat(without.unconfiguredVariables()).as("no event is written without it: nothing waits")
                .doesNotContain("SHOP_EVENTS_URL");

        SinkRoutes with = new SinkRoutes(BoundSettings.bind(OutboxProperties.class, "payments.outbox", Map.of(
                "payments.outbox.sinks.shop-events-url", "https://shop.test/events",
                "payments.outbox.sinks.shop-events-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw,whsec_c2Vjb25k")));
        for (String type : ShopEvents.TYPES) {
            assertThat(with.urlFor(type)).contains(URI.create("https://shop.test/events"));
            assertThat(SinkRoutes.sinkByKind()).containsEntry(type, "shop-events");
            assertThat(with.secretsFor(type)).as("no Payments-Signature").isEmpty();
        }
        assertThat(with.shopEventKeys()).hasSize(2);
        assertThat(with.urlFor("order_paid")).isEmpty();
    }

    @Test
    void theLeaseMustOutliveTwoSinkCalls() {
        assertThatThrownBy(() -> BoundSettings.bind(OutboxProperties.class, "payments.outbox",
                Map.of("payments.outbox.lease", "5s"))).hasStackTraceContaining("payments.outbox.lease must be at least");
    }
}
