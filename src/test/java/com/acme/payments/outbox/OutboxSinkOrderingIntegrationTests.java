package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Ordering (docs/outbox.md; docs/api.md): ordering is per aggregate AND sink. On an instance without {@code CONVERSION_SINK_URL}, the conversion
 * rows of a subscription wait, and its notices go out anyway, in their order; once a relay that knows
 * the conversion sink runs, the conversions follow in theirs.
 */
class OutboxSinkOrderingIntegrationTests extends OutboxIntegrationTest {

    private ConfigurableApplicationContext withoutConversionSink;

    @AfterEach
    void stop() {
        if (withoutConversionSink != null) {
            withoutConversionSink.close();
        }
    }

    @Test
    @DisplayName("an effect whose sink is not configured holds back only its own sink's younger effects")
    void anUnconfiguredSinkHoldsBackOnlyItsOwnKinds() {
        withoutConversionSink = OutboxTwoRelaysIntegrationTests.startInstance("payments.outbox.sinks.conversion-url=");
        OutboxRelay relayWithoutConversions = withoutConversionSink.getBean(OutboxRelay.class);
        String subscription = "sub_" + prefix;
        enqueue(conversion(prefix + "c1", subscription));
        enqueue(notice(prefix + "n1", subscription));
        enqueue(conversion(prefix + "c2", subscription));
        enqueue(notice(prefix + "n2", subscription));

        relayWithoutConversions.runUntilIdle(Duration.ofSeconds(10));
        assertThat(sentKeys()).containsExactly(prefix + "n1:renewal_notice", prefix + "n2:renewal_notice");
        assertThat(row(idOf(prefix + "c1:conversion"))).containsEntry("state", "pending").containsEntry("attempts", 0);

        relay.runUntilIdle(Duration.ofSeconds(10)); // an instance that knows the conversion sink
        makeDue();
        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(sentKeys()).containsExactly(prefix + "n1:renewal_notice", prefix + "n2:renewal_notice",
                prefix + "c1:conversion", prefix + "c2:conversion");
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 4L));
    }

    private static OutboxEntry conversion(String sourceId, String subscriptionId) {
        return new OutboxEntry("conversion", "subscription", subscriptionId, sourceId,
                Map.of("event_id", sourceId, "event_name", "Purchase", "value", "9.99", "currency", "EUR",
                        "source", "webhook"));
    }
}
