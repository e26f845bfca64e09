package com.acme.payments.stripe;

import static com.acme.payments.support.StatementTrace.traced;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.zaxxer.hikari.HikariDataSource;

import com.acme.payments.support.StatementTrace;

/**
 * The statement budget of a billing event at {@code /webhooks/stripe}: a renewal's {@code invoice.paid}
 * (the benchmark's Stripe ingest event, a new grant) and its redelivery. docs/benchmarks.md says what each statement is.
 */
class StripeEventStatementBudgetIntegrationTests extends StripeIntegrationTest {

    @Autowired
    HikariDataSource pool;

    @Test
    @DisplayName("READ COMMITTED, which the Stripe event's transaction relies on, is the pool's: no transaction declares it")
    void thePoolSetsReadCommitted() {
        assertThat(pool.getTransactionIsolation()).isEqualTo("TRANSACTION_READ_COMMITTED");
        assertThat(jdbc.sql("SHOW transaction_isolation").query(String.class).single()).isEqualTo("read committed");
    }

    @Test
    @DisplayName("an applied invoice.paid is the claim and one transaction; its redelivery one statement")
    void billingEventBudgets() {
        String userId = StripeFixtures.id("user");
        String subscriptionId = StripeFixtures.id("sub");
        String eventId = StripeFixtures.id("evt");
        String body = renewal(eventId, subscriptionId, userId, 1, StripeFixtures.id("conv"));

        StatementTrace applied = traced(() -> deliver(body));
        StatementTrace duplicate = traced(() -> deliver(body));

        assertThat(applied.answer().body()).isEqualTo("{\"received\":true}");
        assertThat(eventState(eventId)).isEqualTo("completed");
        assertThat(grantCount(subscriptionId)).isEqualTo(1);
        assertThat(duplicate.answer().body()).isEqualTo("{\"received\":true,\"duplicate\":true}");
        // the claim (autocommit) and the business transaction
        assertThat(applied.commits()).as("commits of the applied event: %s", applied.queries()).isEqualTo(2);
        assertThat(applied.statements()).as("statements of the applied event: %s", applied.queries()).isEqualTo(13);
        assertThat(duplicate.commits()).as("commits of the duplicate (its claim, autocommit): %s", duplicate.queries())
                .isEqualTo(1);
        assertThat(duplicate.statements()).as("statements of the duplicate: %s", duplicate.queries()).isEqualTo(1);
    }
}
