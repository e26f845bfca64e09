package com.acme.payments.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The long run's second finding (seed -8271552944282914841: 3 attempts "UNKNOWN though the PSP knows"):
 * the check counted every payment in the simulator's records as known, including payments the PSP's
 * look-ups still hid ({@code invisible} fault, {@code hiddenUntil}). The exits workload hides its
 * payment for 10 minutes and only reveals it after an abandon that took; when the abandon did not take
 * (an outage, a look-up fault, the run ending) the attempt stayed UNKNOWN with a payment no search or GET
 * showed and no webhook announced — correctly unknown. The check now asks what the look-ups showed.
 */
class ShownToLookupsTests {

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    @DisplayName("a payment the PSP still hides from look-ups is not one the service could know; once shown it is")
    void hiddenPaymentIsNotShown() {
        var mapper = ChaosSimulator.JSON;
        assertThat(Invariants.shownToLookups(mapper.readTree("{\"id\":\"pay_1\",\"state\":\"CHECKOUT\","
                + "\"hiddenUntil\":\"2026-12-01T10:09:00Z\"}"), AT)).isFalse();
        assertThat(Invariants.shownToLookups(mapper.readTree("{\"id\":\"pay_1\",\"state\":\"CHECKOUT\","
                + "\"hiddenUntil\":\"2026-12-01T09:59:59Z\"}"), AT)).isTrue();
        assertThat(Invariants.shownToLookups(mapper.readTree("{\"id\":\"pay_2\",\"state\":\"COMPLETED\"}"), AT)).isTrue();
    }
}
