package com.acme.payments.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;
import com.acme.payments.support.IntegrationTest;

class OpenApiIntegrationTests extends IntegrationTest {

    @Test
    void dump() throws Exception {
        Http.Response r = http().get("/v3/api-docs");
        Files.writeString(Path.of("target/api-docs.json"), r.body());
        assertThat(r.status()).isEqualTo(200);
    }
}
