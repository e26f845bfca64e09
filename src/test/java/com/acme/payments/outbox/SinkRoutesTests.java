package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;

import org.junit.jupiter.api.Test;

class SinkRoutesTests {

    private static OutboxProperties sinks(String notify, String conversion, String fulfilment) {
        return new OutboxProperties(null, null, null, null, null, null, null, null, null,
                new OutboxProperties.Sinks(notify, conversion, fulfilment, null, null, null, null, null), null);
    }

    @Test
    void eachKindGoesToItsSink() {
        SinkRoutes routes = new SinkRoutes(sinks("http://n.test/notify", "https://c.test/c", "http://f.test/f"));
        for (String kind : SinkRoutes.NOTIFY_KINDS) {
            assertThat(routes.urlFor(kind)).contains(URI.create("http://n.test/notify"));
        }
        assertThat(routes.urlFor("conversion")).contains(URI.create("https://c.test/c"));
        assertThat(routes.urlFor("order_paid")).contains(URI.create("http://f.test/f"));
        assertThat(routes.routableKinds()).hasSize(SinkRoutes.NOTIFY_KINDS.size() + 2);
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
    void theLeaseMustOutliveTwoSinkCalls() {
        assertThatThrownBy(() -> new OutboxProperties(null, null, null, null, java.time.Duration.ofSeconds(5), null,
                null, null, null, null, null)).hasMessageContaining("payments.outbox.lease");
    }
}
