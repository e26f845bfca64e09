package com.acme.pspsim;

import org.springframework.stereotype.Component;

import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The simulator's own JSON mapper: amounts are read as {@code BigDecimal} (never through double)
 * and written plain with the caller's scale ({@code 10.50}, not {@code 1.05E+1}), whatever the host's Jackson settings.
 */
@Component
class SimJson {

    private final JsonMapper mapper = JsonMapper.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    JsonMapper mapper() {
        return mapper;
    }
}
