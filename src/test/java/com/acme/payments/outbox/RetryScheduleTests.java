package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

class RetryScheduleTests {

    private static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    @Test
    void theFirstDelayIsTheSettingAndEachFailureDoublesIt() {
        RetrySchedule backoff = new RetrySchedule(Duration.ofSeconds(1), Duration.ofMinutes(10), fixed(0.5)); // no jitter
        assertThat(backoff.delayAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delayAfter(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delayAfter(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(backoff.delayAfter(10)).isEqualTo(Duration.ofSeconds(512));
    }

    @Test
    void delaysStopAtTheCapEvenAfterManyFailures() {
        RetrySchedule backoff = new RetrySchedule(Duration.ofSeconds(1), Duration.ofMinutes(10), fixed(0.5));
        assertThat(backoff.delayAfter(11)).isEqualTo(Duration.ofMinutes(10));
        assertThat(backoff.delayAfter(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void jitterSpreadsDelaysByTwentyPercentEitherWay() {
        assertThat(new RetrySchedule(Duration.ofSeconds(10), Duration.ofMinutes(10), fixed(0.0)).delayAfter(1))
                .isEqualTo(Duration.ofSeconds(8));
        assertThat(new RetrySchedule(Duration.ofSeconds(10), Duration.ofMinutes(10), fixed(0.999999)).delayAfter(1))
                .isBetween(Duration.ofMillis(11_999), Duration.ofSeconds(12));
        RetrySchedule real = new RetrySchedule(Duration.ofSeconds(1), Duration.ofMinutes(10), RandomGenerator.getDefault());
        for (int i = 0; i < 1000; i++) {
            assertThat(real.delayAfter(2)).isBetween(Duration.ofMillis(1600), Duration.ofMillis(2400));
        }
    }
}
