package com.acme.payments.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.common.web.Secrets;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/** Client tokens stored hashed only; the actuator shows health and prometheus only. */
class SecurityReviewIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Test
    @DisplayName("client tokens: orders.client_token_hash is SHA-256 of the token; no column anywhere holds the token")
    void clientTokensAreStoredHashedOnly() {
        var order = new Shop(http()).createOrder("12.00", "EUR");
        String token = order.clientToken();
        assertThat(token).hasSizeGreaterThanOrEqualTo(40);

        byte[] stored = jdbc.sql("SELECT client_token_hash FROM orders WHERE order_ref = :ref")
                .param("ref", order.orderRef()).query(byte[].class).single();
        assertThat(stored).isEqualTo(Secrets.sha256(token));

        List<Map<String, Object>> columns = jdbc.sql("""
                SELECT table_name, column_name, data_type FROM information_schema.columns
                WHERE table_schema = 'public'
                  AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea')
                ORDER BY table_name, column_name""").query().listOfRows();
        assertThat(columns).as("text columns found").hasSizeGreaterThan(20);
        byte[] tokenBytes = token.getBytes(StandardCharsets.UTF_8);
        for (Map<String, Object> column : columns) {
            String table = (String) column.get("table_name");
            String name = (String) column.get("column_name");
            // identifiers come from information_schema, quoted; the searched value is a bound parameter
            String condition = "bytea".equals(column.get("data_type"))
                    ? "position(:bytes in \"" + name + "\") > 0"
                    : "strpos(\"" + name + "\"::text, :text) > 0";
            long hits = jdbc.sql("SELECT count(*) FROM \"" + table + "\" WHERE " + condition)
                    .param("bytes", tokenBytes).param("text", token).query(Long.class).single();
            assertThat(hits).as("rows of %s.%s holding the client token", table, name).isZero();
        }
    }

    @Test
    @DisplayName("actuator: env, beans, heapdump, configprops and the rest are 404; health and prometheus answer")
    void actuatorExposesHealthAndPrometheusOnly() {
        for (String path : List.of("/actuator/env", "/actuator/beans", "/actuator/heapdump", "/actuator/configprops",
                "/actuator/loggers", "/actuator/threaddump", "/actuator/mappings", "/actuator/metrics",
                "/actuator/scheduledtasks", "/actuator/shutdown", "/actuator/env/payments.auth.admin-keys")) {
            assertThat(http().get(path).status()).as(path).isEqualTo(404);
            assertThat(http().bearer(Shop.ADMIN_KEY).get(path).status()).as(path + " with the admin key").isEqualTo(404);
        }
        assertThat(http().send("POST", "/actuator/shutdown", new byte[0]).status()).isIn(404, 405);
        assertThat(http().get("/actuator/health").status()).isEqualTo(200);
        assertThat(http().get("/actuator/health").body()).doesNotContain("db").doesNotContain("postgres");
        assertThat(http().get("/actuator/prometheus").status()).isEqualTo(200);
    }
}
