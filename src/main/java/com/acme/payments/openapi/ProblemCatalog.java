package com.acme.payments.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.acme.payments.common.web.ProblemType;

import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;

/**
 * How one status's problems become one documented response: a {@code type} enum of the
 * {@link ProblemType}s the operation can answer, an example and meaning per type, and {@code Retry-After}
 * where a type carries it.
 */
final class ProblemCatalog {

    static final String PROBLEM_JSON = "application/problem+json";

    private ProblemCatalog() {
    }

    static ApiResponse response(int status, List<ProblemType> problems) {
        StringBuilder description = new StringBuilder("Problem:");
        Map<String, Example> examples = new LinkedHashMap<>();
        List<Object> types = new ArrayList<>();
        boolean retry = false;
        for (ProblemType problem : problems) {
            description.append(" `").append(problem.slug()).append("` — ").append(problem.meaning()).append(';');
            types.add(problem.uri().toString());
            examples.put(problem.slug(), new Example().summary(problem.meaning())
                    .value(Map.of("type", problem.uri().toString(), "status", status)));
            retry |= problem.retryAfter();
        }
        description.setLength(description.length() - 1);
        Schema<Object> typeEnum = new Schema<>();
        typeEnum.setType("string");
        typeEnum.addType("string"); // what an OpenAPI 3.1 document writes
        typeEnum.setFormat("uri");
        typeEnum.setEnum(types);
        Schema<?> schema = new Schema<>().allOf(List.of(
                new Schema<>().$ref("#/components/schemas/" + OpenApiConfig.PROBLEM),
                new ObjectSchema().addProperty("type", typeEnum).addProperty("status",
                        new IntegerSchema()._enum(List.of(status)))));
        ApiResponse response = new ApiResponse().description(description.toString())
                .content(new Content().addMediaType(PROBLEM_JSON,
                        new MediaType().schema(schema).examples(examples)));
        if (retry) {
            response.addHeaderObject("Retry-After", new Header()
                    .description("Seconds to wait before retrying (for the slugs that carry it).")
                    .schema(new StringSchema()));
        }
        return response;
    }
}
