package com.acme.payments.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;
import com.acme.payments.support.IntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OpenAPI description the code generates is committed as {@code docs/openapi.json}, so an API change
 * shows in review: this test fails when the two differ. After an intended change, run it with
 * {@code -Dopenapi.update=true} (it then rewrites the file) and commit the diff.
 */
class OpenApiSnapshotIntegrationTests extends IntegrationTest {

    static final Path COMMITTED = Path.of("docs/openapi.json");

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    @Test
    @DisplayName("docs/openapi.json is exactly what /v3/api-docs generates from the code")
    void committedDescriptionMatchesTheCode() throws Exception {
        Http.Response response = http().get("/v3/api-docs");
        assertThat(response.status()).isEqualTo(200);
        String generated = JSON.writeValueAsString(JSON.readTree(response.body())) + "\n";
        if (Boolean.getBoolean("openapi.update")) {
            Files.writeString(COMMITTED, generated);
        }
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/openapi.generated.json"), generated);
        JsonNode committed = JSON.readTree(Files.readString(COMMITTED));
        assertThat(JSON.writeValueAsString(committed) + "\n")
                .as("the API changed: compare target/openapi.generated.json with %s; if intended, rerun with "
                        + "-Dopenapi.update=true and commit the file", COMMITTED)
                .isEqualTo(generated);
    }
}
