package com.acme.payments;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.IntegrationTest;

class ApplicationStartsIntegrationTests extends IntegrationTest {

    @Test
    void healthIsUpWithTheDatabase() {
        var response = http().get("/actuator/health");
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("status").asString()).isEqualTo("UP");
    }

    @Test
    void prometheusIsExposedAndOtherActuatorsAreNot() {
        assertThat(http().get("/actuator/prometheus").status()).isEqualTo(200);
        assertThat(http().get("/actuator/env").status()).isEqualTo(404);
        assertThat(http().get("/actuator/beans").status()).isEqualTo(404);
    }
}
