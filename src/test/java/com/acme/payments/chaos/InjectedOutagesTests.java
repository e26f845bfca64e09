package com.acme.payments.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.acme.payments.chaos.ServiceClient.Answer;

/** Which 503 the chaos invariants excuse: only one that overlapped an outage the run injected. */
class InjectedOutagesTests {

    private static final String UNAVAILABLE = "{\"type\":\"https://payments.acme.example/problems/database-unavailable\"}";

    @AfterEach
    void noOutage() {
        InjectedOutages.use(Optional.empty());
    }

    @Test
    void a503WithoutAnInjectedOutageIsNotExcused() {
        InjectedOutages.use(Optional.empty()); // the shared test PostgreSQL: nothing injected
        long sent = System.nanoTime();
        Answer poolWait = new Answer(503, UNAVAILABLE, "5", 0, sent, sent + 5_000_000_000L);

        assertThat(InjectedOutages.excused(poolWait)).as("a pool or bulkhead wait, database up").isFalse();
    }

    @Test
    void a503DuringARoundOfTerminatedConnectionsIsExcusedAndOnlyThen() {
        InjectedOutages.use(Optional.empty());
        long t = System.nanoTime();
        InjectedOutages.connectionsTerminated(t + 1_000, t + 2_000);

        assertThat(InjectedOutages.excused(new Answer(503, UNAVAILABLE, null, 0, t, t + 1_500)))
                .as("its statement may have lost its connection").isTrue();
        assertThat(InjectedOutages.excused(new Answer(503, UNAVAILABLE, null, 0, t + 3_000, t + 4_000)))
                .as("answered after the round").isFalse();
    }

    @Test
    void onlyTheOutagesAnswerIsExcused() {
        long sent = System.nanoTime();
        Answer other = new Answer(503, "{\"type\":\"https://payments.acme.example/problems/not-configured\"}", null, 0,
                sent, sent + 1);
        Answer error = new Answer(500, UNAVAILABLE, null, 0, sent, sent + 1);

        assertThat(InjectedOutages.excused(other)).isFalse();
        assertThat(InjectedOutages.excused(error)).isFalse();
    }
}
