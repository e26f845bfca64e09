package com.acme.payments.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import com.acme.payments.common.web.KeysUnverifiable;
import com.acme.payments.common.web.Secrets;
import com.acme.payments.support.IntegrationTest;

/**
 * An instance's copy of the issued keys: read on the first request (not a period later), and, when the
 * database cannot be read, too old to trust after {@code max-staleness}: it then vouches for no issued key (a
 * revocation it cannot see must not let one in) nor refuses one (the key may be valid): unverifiable, a 503.
 */
class IssuedKeysIntegrationTests extends IntegrationTest {

    @Autowired
    DataSource dataSource;

    @Test
    @DisplayName("a new copy answers the first request from the table; an unreadable table fails closed")
    void firstReadOnDemandAndFailClosedWhenStale() {
        String key = http().bearer("test-admin-key").post("/api/admin/keys",
                "{\"name\":\"stale-check\",\"scopes\":[\"read\"]}").json().path("key").asString();
        AtomicBoolean down = new AtomicBoolean();
        DataSource switchable = new DelegatingDataSource(dataSource) {
            @Override
            public Connection getConnection() throws SQLException {
                if (down.get()) {
                    throw new SQLTransientConnectionException("database switched off by the test");
                }
                return super.getConnection();
            }
        };
        // no job re-reads this copy: requests do, at most once per refresh period
        IssuedKeys copy = new IssuedKeys(new ApiKeyStore(JdbcClient.create(switchable)),
                new AccessProperties(Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofHours(1)));

        assertThat(copy.find(Secrets.sha256(key))).as("read at the first request, no job run yet").isPresent();
        down.set(true);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(
                () -> assertThatThrownBy(() -> copy.find(Secrets.sha256(key))).as("a copy too old to trust")
                        .isInstanceOf(KeysUnverifiable.class));
        down.set(false);
        await().atMost(Duration.ofSeconds(10)).ignoreExceptionsInstanceOf(KeysUnverifiable.class).untilAsserted(
                () -> assertThat(copy.find(Secrets.sha256(key))).as("read again once it can be").isPresent());
    }
}
