package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.transaction.IllegalTransactionStateException;

/**
 * OutboxStore opens its own transactions for the relay, admin and pruning writes, but an effect is written
 * only inside the business write it belongs to: enqueue alone stays MANDATORY.
 */
class OutboxEnqueuePropagationIntegrationTests extends OutboxIntegrationTest {
    @Test
    void enqueueOutsideATransactionIsRefused() {
        assertThatThrownBy(() -> outbox.enqueue(new OutboxEntry("renewal_notice", "propagation", "p1", "s1", Map.of())))
                .isInstanceOf(IllegalTransactionStateException.class);
    }
}
