package com.acme.payments.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The long chaos run ({@code ./mvnw verify -Pchaos}): three service processes, minutes of randomized
 * load with SIGKILLs, terminated database connections and PSP faults; every invariant must hold.
 * Size and seed from {@code -Dchaos.seed}, {@code -Dchaos.duration} (e.g. 5m), {@code -Dchaos.instances},
 * {@code -Dchaos.shoppers}, {@code -Dchaos.settle}; {@code -Dchaos.psp=stripe} runs it against the simulator's
 * Stripe surface ({@link StripePsp}) instead of its Gateway API.
 */
@Tag("chaos")
class ChaosTests {

    @Test
    @DisplayName("proof under faults: money and effects stay exact through kills, dropped connections and PSP faults")
    void proofUnderFaults() throws Exception {
        ChaosSettings settings = ChaosSettings.fromSystemProperties();
        ChaosPsp psp = System.getProperty("chaos.psp", "gateway").equals("stripe") ? new StripePsp(settings.seed())
                : new GatewayPsp();
        ChaosRun.Outcome outcome = ChaosRun.run(settings, psp);
        assertThat(outcome.ok()).as(outcome.summary()).isTrue();
    }
}
