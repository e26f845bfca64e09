package com.acme.payments.common.web;

import java.io.IOException;
import java.util.List;

import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the service's {@code @RequestBody} records (records of {@code com.acme.payments}): whatever the
 * Content-Type, as the endpoints always have; unknown fields ignored; decimals read exactly; no NUL or
 * unpaired surrogate anywhere in the body (a 400, instead of a 500 or a silent '?' in a row). Spring checks
 * the body's presence before and {@code @Valid} after; the problems come from {@link ProblemAdvice}.
 * Reading only: answers are written by Spring's own JSON converter. Not a bean, so that no HTTP client
 * (GatewayClient, StripeApiClient) picks it up for the answers it reads: {@link WebConfig} registers it.
 */
class RequestBodyConverter implements HttpMessageConverter<Object> {

    private static final String PACKAGE = "com.acme.payments.";

    private final JsonMapper json;

    RequestBodyConverter(JsonMapper json) {
        this.json = json.rebuild()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .build();
    }

    @Override
    public boolean canRead(Class<?> type, MediaType mediaType) {
        return type.isRecord() && type.getName().startsWith(PACKAGE);
    }

    @Override
    public boolean canWrite(Class<?> type, MediaType mediaType) {
        return false;
    }

    @Override
    public List<MediaType> getSupportedMediaTypes() {
        return List.of(MediaType.APPLICATION_JSON);
    }

    @Override
    public Object read(Class<?> type, HttpInputMessage input) throws IOException {
        byte[] body = input.getBody().readAllBytes(); // an oversized body fails here: 413 (BodySizeLimitFilter)
        Object value;
        try {
            // one parse: the tree is checked, then bound
            JsonNode tree = json.readTree(body);
            requireStorableText(tree, "");
            value = json.treeToValue(tree, type);
        } catch (NumberFormatException e) {
            // the tree reads every float as BigDecimal: an exponent out of int range fails outside Jackson's types
            throw new Problems.MalformedBody("The request body holds a number out of range.");
        } catch (JacksonException e) {
            if (!e.getPath().isEmpty()) {
                throw Problems.ValidationFailed.of(fieldPath(e.getPath()), "has the wrong type or format");
            }
            throw new Problems.MalformedBody("The request body is not valid JSON.");
        }
        if (value == null) {
            throw new Problems.MalformedBody("The request body must be a JSON object.");
        }
        return value;
    }

    @Override
    public void write(Object value, MediaType contentType, HttpOutputMessage output) {
        throw new UnsupportedOperationException("reads request bodies only");
    }

    /** Refuses a NUL or an unpaired surrogate anywhere, unknown fields and field names included. */
    private static void requireStorableText(JsonNode node, String path) {
        if (node == null) {
            return;
        }
        if (node.isString() && !StorableText.isStorable(node.asString())) {
            throw Problems.ValidationFailed.of(path, "contains a NUL character or an unpaired surrogate");
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                requireStorableText(node.get(i), path + "[" + i + "]");
            }
        } else if (node.isObject()) {
            for (String name : node.propertyNames()) {
                String field = path.isEmpty() ? name : path + "." + name;
                if (!StorableText.isStorable(name)) {
                    throw Problems.ValidationFailed.of("", "a field name contains a NUL character or an unpaired surrogate");
                }
                requireStorableText(node.get(name), field);
            }
        }
    }

    static String fieldPath(List<JacksonException.Reference> path) {
        StringBuilder field = new StringBuilder();
        for (JacksonException.Reference ref : path) {
            if (ref.getPropertyName() != null) {
                if (!field.isEmpty()) {
                    field.append('.');
                }
                field.append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                field.append('[').append(ref.getIndex()).append(']');
            }
        }
        return field.toString();
    }
}
