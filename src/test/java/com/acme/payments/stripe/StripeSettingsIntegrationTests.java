package com.acme.payments.stripe;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;

import com.acme.payments.PaymentsApplication;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.TestDatabase;

/** Settings that must stop the service at start-up. */
class StripeSettingsIntegrationTests {

    @Test
    void aPruneRetentionBelowStripesRetryWindowRefusesToStart() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(PaymentsApplication.class).profiles("test").run(
                "--spring.datasource.url=" + TestDatabase.url(),
                "--spring.datasource.username=" + TestDatabase.user(),
                "--spring.datasource.password=" + TestDatabase.password(),
                "--payments.psp.api-url=" + PspStub.baseUrl(),
                "--stripe.prune.retention=2d",
                "--server.port=0").close())
                .hasStackTraceContaining("stripe.prune").hasStackTraceContaining("must be at least 3d");
    }
}
