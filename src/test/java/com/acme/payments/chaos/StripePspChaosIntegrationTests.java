package com.acme.payments.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The short, seeded chaos run against the simulator's Stripe surface ({@code payments.psp.provider=stripe}):
 * the same shoppers, SIGKILLs, terminated connections and PostgreSQL outages as {@link ShortChaosIntegrationTests},
 * Stripe's faults, and the money invariants of {@link StripePspInvariants}.
 */
class StripePspChaosIntegrationTests {

    @Test
    @DisplayName("proof under faults at Stripe (short, seeded): one session per attempt, each paid one booked once, refunds never above the paid amount")
    void proofUnderFaultsAtStripe() throws Exception {
        ChaosSettings settings = ChaosSettings.shortRun(20261203L);
        ChaosRun.Outcome outcome = ChaosRun.run(settings, new StripePsp(settings.seed()));
        assertThat(outcome.ok()).as(outcome.summary()).isTrue();
    }
}
