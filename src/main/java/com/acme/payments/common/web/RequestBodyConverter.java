package com.acme.payments.common.web;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;

import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

/**
 * Reads the service's {@code @RequestBody} records (records of {@code com.acme.payments}): whatever the
 * Content-Type, as the endpoints always have; unknown fields ignored; decimals read exactly; no NUL or
 * unpaired surrogate anywhere in the body (a 400, instead of a 500 or a silent '?' in a row). Strict, as
 * the contract's hostile-input rules want: a duplicate key, a number or boolean where a string belongs, an
 * amount string that is not a plain decimal ({@link RequestRules#isPlainDecimal}: "1e2" is not 100) are 400
 * naming the field. Its own copy of the mapper: webhook payloads and the HTTP clients keep theirs. Spring checks
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
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .withCoercionConfig(LogicalType.Textual, strings -> strings
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .addModule(new SimpleModule("request-amounts").addDeserializer(BigDecimal.class, new Amount()))
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
        } catch (StreamReadException e) {
            if (e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Duplicate Object property")
                    && e.processor() != null) {
                throw Problems.ValidationFailed.of(fieldPath(e.processor().streamReadContext()),
                        "appears more than once");
            }
            throw new Problems.MalformedBody("The request body is not valid JSON.");
        } catch (JacksonException e) {
            if (!e.getPath().isEmpty()) {
                throw Problems.ValidationFailed.of(fieldPath(e.getPath()), messageFor(e));
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

    private static String messageFor(JacksonException e) {
        Class<?> target = e instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null;
        if (target == String.class) {
            return "must be a JSON string";
        }
        if (target == BigDecimal.class) {
            return Amount.MESSAGE;
        }
        return "has the wrong type or format";
    }

    /** Where the parser stands ({@code customer.referenceId}, {@code items[2].id}) as the field path the problems name. */
    private static String fieldPath(TokenStreamContext context) {
        String path = "";
        for (TokenStreamContext at = context; at != null && !at.inRoot(); at = at.getParent()) {
            String step = at.inArray() ? "[" + at.getCurrentIndex() + "]" : at.currentName();
            path = step + (path.isEmpty() || path.startsWith("[") ? "" : ".") + path;
        }
        return path;
    }

    /**
     * Every {@code BigDecimal} of a request body is an amount: a JSON number, read exactly (never through
     * double), or a string that is a plain decimal.
     */
    private static final class Amount extends StdScalarDeserializer<BigDecimal> {

        static final String MESSAGE = "must be a decimal: a JSON number or a string of digits with an optional "
                + "decimal point (no sign, exponent, spaces or separators)";

        Amount() {
            super(BigDecimal.class);
        }

        @Override
        public BigDecimal deserialize(JsonParser parser, DeserializationContext context) {
            if (parser.hasToken(JsonToken.VALUE_NUMBER_INT) || parser.hasToken(JsonToken.VALUE_NUMBER_FLOAT)) {
                return parser.getDecimalValue();
            }
            if (parser.hasToken(JsonToken.VALUE_STRING) && RequestRules.isPlainDecimal(parser.getString())) {
                return new BigDecimal(parser.getString());
            }
            throw MismatchedInputException.from(parser, BigDecimal.class, MESSAGE);
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
