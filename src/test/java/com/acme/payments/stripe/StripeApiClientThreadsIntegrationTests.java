package com.acme.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.github.tomakehurst.wiremock.client.WireMock;

/**
 * The Stripe API client starts no thread per call (Spring's JDK request factory published every
 * request on a new thread), counted with the JVM's total-started counter around 100 reads.
 */
class StripeApiClientThreadsIntegrationTests extends StripeIntegrationTest {

    @Autowired
    StripeApiClient stripe;

    @Test
    void readsStartNoThreads() {
        psp.stubFor(WireMock.get(WireMock.urlPathEqualTo("/v1/subscriptions/sub_threads"))
                .willReturn(json("{\"id\":\"sub_threads\",\"object\":\"subscription\"}")));
        for (int i = 0; i < 10; i++) {
            stripe.subscription("sub_threads"); // the connection and the client's executor exist after this
        }
        long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();

        for (int i = 0; i < 100; i++) {
            assertThat(stripe.subscription("sub_threads")).hasValueSatisfying(
                    subscription -> assertThat(StripeEvent.text(subscription, "id")).isEqualTo("sub_threads"));
        }

        long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
        assertThat(started).as("threads started during 100 Stripe API reads").isLessThan(10);
    }
}
