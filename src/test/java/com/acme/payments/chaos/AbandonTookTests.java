package com.acme.payments.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.acme.payments.chaos.ServiceClient.Answer;

/** The chaos check on two concurrent abandons of an UNKNOWN second-charge refund. */
class AbandonTookTests {

    private static final Answer CLOSED = new Answer(200,
            "{\"referenceId\":\"dcr_1\",\"state\":\"FAILED\",\"errorCode\":\"abandoned\"}", null, 0);
    private static final Answer NOT_OPEN = new Answer(409,
            "{\"type\":\"https://payments.acme.example/problems/refund-not-open\",\"status\":409}", null, 1);

    @Test
    void oneCloseAndOneRefusalIsAnAbandon() {
        Answer unknown = new Answer(409, "{\"type\":\"https://payments.acme.example/problems/refund-outcome-unknown\"}",
                null, 1);
        assertThat(FinalTruthsInvariants.abandonTook(List.of(CLOSED, NOT_OPEN))).isTrue();
        assertThat(FinalTruthsInvariants.abandonTook(List.of(NOT_OPEN, CLOSED))).isTrue();
        assertThat(FinalTruthsInvariants.abandonTook(List.of(unknown, unknown, CLOSED))).as("the PSP could not be asked, "
                + "then the operator's retry").isTrue();
    }

    @Test
    void noEndpointTwoClosesOrNoneAreNot() {
        Answer notFound = new Answer(404, "{\"type\":\"https://payments.acme.example/problems/not-found\"}", null, 0);
        assertThat(FinalTruthsInvariants.abandonTook(List.of(notFound, notFound))).as("main today: 404+404").isFalse();
        assertThat(FinalTruthsInvariants.abandonTook(List.of(CLOSED, CLOSED))).as("released twice").isFalse();
        assertThat(FinalTruthsInvariants.abandonTook(List.of(NOT_OPEN, NOT_OPEN))).as("never closed").isFalse();
    }
}
