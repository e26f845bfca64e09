package com.acme.payments.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Instances;
import com.acme.payments.support.IntegrationTest;

/**
 * Instances share only PostgreSQL: a key issued on one is honoured by a second (its own context, pool and
 * copy of the keys) once that copy is re-read, and a key revoked on the first is refused (401) by the second
 * within the contract's 5 seconds of the revocation's answer.
 */
class RevocationAcrossInstancesIntegrationTests extends IntegrationTest {

    static ConfigurableApplicationContext second;

    @BeforeAll
    static void startSecondInstance() {
        second = Instances.start(Map.of());
    }

    @AfterAll
    static void stopSecondInstance() {
        second.close();
    }

    private Http secondInstance() {
        return new Http("http://localhost:" + second.getEnvironment().getProperty("local.server.port"));
    }

    @Test
    @DisplayName("a key revoked on one instance answers 401 on another within 5 seconds")
    void revocationReachesTheSecondInstanceWithinFiveSeconds() {
        Response issued = http().bearer("test-admin-key").post("/api/admin/keys",
                "{\"name\":\"reader\",\"scopes\":[\"read\"]}");
        assertThat(issued.status()).isEqualTo(201);
        String key = issued.json().path("key").asString();
        long id = issued.json().path("id").asLong();
        Http elsewhere = secondInstance().bearer(key);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(
                () -> assertThat(elsewhere.get("/api/orders?limit=1").status()).as("honoured elsewhere").isEqualTo(200));

        Response revoked = http().bearer("test-admin-key").send("DELETE", "/api/admin/keys/" + id, null);
        assertThat(revoked.status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).untilAsserted(
                () -> assertThat(elsewhere.get("/api/orders?limit=1").status()).isEqualTo(401));
        assertThat(http().bearer(key).get("/api/orders?limit=1").status()).as("at once where it was revoked")
                .isEqualTo(401);
    }
}
