package com.acme.payments.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Instances;
import com.acme.payments.support.PspFixtures;
import com.acme.payments.support.Shop;

/** With the database unreachable the webhook answers 503 (the PSP retries), never a 200 that loses it. */
class DatabaseDownIntegrationTests {

    @Test
    void webhookAnswers503WhenTheDatabaseIsUnreachable() {
        // an instance whose database is unreachable (nothing listens on port 1)
        ConfigurableApplicationContext instance = Instances.start(Map.of(
                "spring.datasource.url", "jdbc:postgresql://127.0.0.1:1/payments",
                "spring.datasource.hikari.initialization-fail-timeout", "-1",
                "spring.datasource.hikari.connection-timeout", "1000",
                "spring.flyway.enabled", "false"));
        Http http = new Http("http://localhost:" + instance.getEnvironment().getProperty("local.server.port"));
        String body = PspFixtures.payment("pay-dbdown-" + System.nanoTime(), null, "DEPOSIT", "COMPLETED", "1.00", "EUR");
        try {
            Response down = http.header("Signature", PspFixtures.hmacHex(body)).post("/webhooks/psp", body);
            assertThat(down.status()).isEqualTo(503);
            assertThat(down.header("Retry-After")).isNotBlank();
            assertThat(down.body()).doesNotContain("Exception", "jdbc", "SQL");
            Response orders = http.bearer(Shop.SHOP_KEY).get("/api/orders/whatever");
            assertThat(orders.status()).isEqualTo(503);
        } finally {
            instance.close();
        }
    }
}
