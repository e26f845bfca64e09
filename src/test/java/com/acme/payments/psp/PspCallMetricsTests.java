package com.acme.payments.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.ResourceAccessException;

/** The outcomes {@code PspErrors} reads: a timeout anywhere in the causes is a timeout, not an error. */
class PspCallMetricsTests {

    @Test
    @DisplayName("an unknown outcome is a timeout when a timeout caused it, unbookable for a payload fault, else an error")
    void unknownOutcomesAreClassifiedByTheirCause() {
        assertThat(PspCallMetrics.unknown(unknown(new ResourceAccessException("read",
                new HttpTimeoutException("no complete answer within the read timeout"))))).isEqualTo("timeout");
        assertThat(PspCallMetrics.unknown(unknown(new ResourceAccessException("connect",
                new HttpConnectTimeoutException("connect timed out"))))).isEqualTo("timeout");
        assertThat(PspCallMetrics.unknown(unknown(new SocketTimeoutException("read timed out")))).isEqualTo("timeout");
        assertThat(PspCallMetrics.unknown(unknown(new PaymentPayloadFault(PaymentPayloadFault.Kind.CURRENCY, "currency",
                "EURO is no ISO-4217 code")))).isEqualTo("unbookable");
        assertThat(PspCallMetrics.unknown(new PaymentOutcomeUnknown("capture answered HTTP 502"))).isEqualTo("error");
        assertThat(PspCallMetrics.unknown(unknown(new ResourceAccessException("reset", new IOException("reset")))))
                .isEqualTo("error");
    }

    private static PaymentOutcomeUnknown unknown(Throwable cause) {
        return new PaymentOutcomeUnknown("failed: " + cause.getClass().getSimpleName(), cause);
    }
}
