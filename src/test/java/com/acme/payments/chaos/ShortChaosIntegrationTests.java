package com.acme.payments.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The short, seeded chaos run inside the normal suite: two service processes, about a minute of load
 * with SIGKILLs, terminated database connections and PSP faults, then the same invariants as the long
 * run ({@link ChaosTests}).
 */
class ShortChaosIntegrationTests {

    @Test
    @DisplayName("proof under faults (short, seeded): money and effects stay exact")
    void proofUnderFaultsShort() throws Exception {
        ChaosRun.Outcome outcome = ChaosRun.run(ChaosSettings.shortRun());
        assertThat(outcome.ok()).as(outcome.summary()).isTrue();
    }
}
