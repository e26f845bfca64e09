package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.BoundSettings;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The retry settings' defaults, as bound at start-up and as the configuration metadata states them. */
class OutboxPropertiesTests {

    @Test
    void aFailingDeliveryIsRetriedForThreeDaysWithPausesUpToAnHourAndNoCountLimit() {
        OutboxProperties defaults = BoundSettings.bind(OutboxProperties.class, "payments.outbox", Map.of());
        assertThat(defaults.backoff()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.maxBackoff()).isEqualTo(Duration.ofHours(1));
        assertThat(defaults.maxAttempts()).isZero();
        assertThat(defaults.retryHorizon()).isEqualTo(Duration.ofDays(3));
    }

    @Test
    void theMetadataStatesTheDefaults() throws IOException {
        Map<String, JsonNode> entries = new HashMap<>();
        for (URL url : Collections.list(getClass().getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                JsonMapper.builder().build().readTree(in).path("properties")
                        .forEach(entry -> entries.put(entry.path("name").asString(), entry));
            }
        }
        assertThat(entries.get("payments.outbox.max-backoff").path("defaultValue").asString()).isEqualTo("1h");
        assertThat(entries.get("payments.outbox.retry-horizon").path("defaultValue").asString()).isEqualTo("3d");
        assertThat(entries.get("payments.outbox.max-attempts").path("defaultValue").asString()).isEqualTo("0");
        assertThat(entries.get("payments.outbox.retry-horizon").path("description").asString()).isNotBlank();
    }

    @Test
    void aNegativeMaxAttemptsIsRefused() {
        assertThatThrownBy(() -> BoundSettings.bind(OutboxProperties.class, "payments.outbox",
                Map.of("payments.outbox.max-attempts", "-1"))).hasStackTraceContaining("max-attempts");
    }
}
