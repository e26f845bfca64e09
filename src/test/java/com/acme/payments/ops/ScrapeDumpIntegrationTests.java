package com.acme.payments.ops;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.IntegrationTest;

class ScrapeDumpIntegrationTests extends IntegrationTest {
    @Test
    void dump() throws Exception {
        Files.writeString(Path.of("target/scrape.txt"), http().get("/actuator/prometheus").body());
    }
}
