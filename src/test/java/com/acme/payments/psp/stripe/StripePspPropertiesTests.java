package com.acme.payments.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** payments.stripe.*: the session lifetime stays within 1 h – 24 h, else the start fails naming it. */
class StripePspPropertiesTests {

    @Configuration
    @EnableConfigurationProperties(StripePspProperties.class)
    static class Bound {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Bound.class);

    @ParameterizedTest(name = "session-lifetime={0} → starts: {1}")
    @CsvSource({ "59m, false", "1h, true", "90m, true", "24h, true", "25h, false" })
    @DisplayName("payments.stripe.session-lifetime outside 1h–24h fails the start, naming the property")
    void sessionLifetimeBounds(String lifetime, boolean starts) {
        runner.withPropertyValues("payments.stripe.session-lifetime=" + lifetime).run(context -> {
            if (starts) {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(StripePspProperties.class).sessionLifetime())
                        .isEqualTo(Duration.parse("PT" + lifetime.toUpperCase()));
            } else {
                assertThat(context).hasFailed();
                assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("payments.stripe.session-lifetime");
            }
        });
    }

    @ParameterizedTest(name = "capture-method={0}")
    @CsvSource({ "automatic, AUTOMATIC", "manual, MANUAL" })
    void captureMethod(String value, StripePspProperties.CaptureMethod expected) {
        runner.withPropertyValues("payments.stripe.capture-method=" + value).run(context ->
                assertThat(context.getBean(StripePspProperties.class).captureMethod()).isEqualTo(expected));
    }

    @org.junit.jupiter.api.Test
    void defaults() {
        runner.run(context -> {
            StripePspProperties properties = context.getBean(StripePspProperties.class);
            assertThat(properties.sessionLifetime()).isEqualTo(Duration.ofHours(1));
            assertThat(properties.captureMethod()).isEqualTo(StripePspProperties.CaptureMethod.AUTOMATIC);
        });
    }
}
