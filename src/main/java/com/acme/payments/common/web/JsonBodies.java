package com.acme.payments.common.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Problems.FieldProblem;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and validates JSON request bodies inside the controller method, after authentication and the
 * 404 check, so answers follow the contract's precedence (401/403, 404, 400, 409/422). Unknown fields
 * are ignored; decimals are read exactly.
 */
@Component
public class JsonBodies {

    private final JsonMapper json;
    private final Validator validator;

    JsonBodies(JsonMapper json, Validator validator) {
        this.json = json.rebuild()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .build();
        this.validator = validator;
    }

    /** Parses and validates; an empty body reads as {@code {}} when {@code optional}. */
    public <T> T read(byte[] body, Class<T> type, boolean optional) {
        if (body == null || body.length == 0) {
            if (!optional) {
                throw new Problems.MalformedBody("A JSON request body is required.");
            }
            body = "{}".getBytes();
        }
        T value;
        try {
            // one parse: the tree is checked, then bound (reading the bytes twice cost a second parse per request)
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
        Set<ConstraintViolation<T>> violations = validator.validate(value);
        if (!violations.isEmpty()) {
            List<FieldProblem> errors = new ArrayList<>();
            violations.forEach(v -> errors.add(new FieldProblem(v.getPropertyPath().toString(), v.getMessage())));
            errors.sort(java.util.Comparator.comparing(FieldProblem::field));
            throw new Problems.ValidationFailed(errors);
        }
        return value;
    }

    /** Refuses a NUL or an unpaired surrogate anywhere (400), instead of a 500 or a silent '?' in the row. */
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
