package com.acme.payments.openapi;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.springdoc.core.customizers.OpenApiCustomizer;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;

/**
 * What the generated description cannot say by itself: the problem body's schema (springdoc drops
 * schemas nothing refers to yet), and that the records' decimal strings are money and their currency
 * fields ISO-4217 codes. Operations, bodies and answers come from the controllers' records and annotations.
 */
class ContractDocs implements OpenApiCustomizer {

    private static final List<String> MONEY_FIELDS = List.of("amount", "paidAmount", "refundedAmount");
    private static final List<String> CURRENCY_FIELDS = List.of("currency", "paidCurrency");

    @Override
    public void customise(OpenAPI api) {
        OpenApiConfig.addProblemSchemas(api.getComponents());
        markMoney(api.getComponents().getSchemas());
    }

    /** The records carry money as strings already; say which strings are decimal amounts and currencies. */
    @SuppressWarnings("rawtypes")
    private static void markMoney(Map<String, Schema> schemas) {
        if (schemas == null) {
            return;
        }
        schemas.values().forEach(schema -> {
            mark(schema, MONEY_FIELDS, OpenApiConfig::money);
            mark(schema, CURRENCY_FIELDS, OpenApiConfig::currency);
        });
    }

    /** A string property, as a 3.0 schema ({@code type}) or a 3.1 one ({@code types}) says it. */
    @SuppressWarnings("rawtypes")
    private static boolean isString(Schema property) {
        return "string".equals(property.getType())
                || (property.getTypes() != null && property.getTypes().equals(java.util.Set.of("string")));
    }

    @SuppressWarnings({ "rawtypes", "unchecked" })
    private static void mark(Schema schema, List<String> fields, Supplier<Schema<String>> as) {
        Map<String, Schema> properties = schema.getProperties();
        if (properties == null) {
            return;
        }
        fields.forEach(field -> {
            Schema property = properties.get(field);
            if (property != null && isString(property) && property.get$ref() == null) {
                properties.put(field, as.get());
            }
        });
    }
}
