package com.acme.payments.openapi;

import java.util.List;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;

/**
 * The bodies that controllers build as maps (so springdoc cannot see their shape), written out as the
 * contract states them.
 */
final class ResponseSchemas {

    private ResponseSchemas() {
    }

    static void addTo(Components components) {
        components.addSchemas("OrderCreated", required(new ObjectSchema()
                .addProperty("orderRef", new StringSchema())
                .addProperty("status", new StringSchema().example("AWAITING_PAYMENT"))
                .addProperty("amount", OpenApiConfig.money())
                .addProperty("currency", currency())
                .addProperty("clientToken", new StringSchema().description(
                        "The order's client token, only in the 201 answer; stored hashed, never shown again")),
                "orderRef", "status", "amount", "currency"));
        components.addSchemas("CheckoutStarted", required(new ObjectSchema()
                .addProperty("redirectUrl", new StringSchema().format("uri").description("The PSP's hosted page"))
                .addProperty("attempt", required(new ObjectSchema()
                        .addProperty("referenceId", new StringSchema())
                        .addProperty("state", new StringSchema().example("READY")), "referenceId", "state")),
                "redirectUrl", "attempt"));
        components.addSchemas("Refund", required(new ObjectSchema()
                .addProperty("refundKey", new StringSchema().description("The Idempotency-Key"))
                .addProperty("referenceId", new StringSchema())
                .addProperty("state", enumOf("DONE", "FAILED", "IN_FLIGHT", "UNKNOWN"))
                .addProperty("amount", OpenApiConfig.money())
                .addProperty("currency", currency())
                .addProperty("pspPaymentId", new StringSchema())
                .addProperty("errorCode", new StringSchema().description("The PSP's code when FAILED (extension)"))
                .addProperty("pspState", new StringSchema().description("The PSP's state of the REFUND payment"))
                .addProperty("requestedBy", new StringSchema().description("The admin key's name that asked"))
                .addProperty("createdAt", new StringSchema().format("date-time").description("Extension")),
                "refundKey", "referenceId", "state", "amount", "currency"));
        components.addSchemas("AbandonedAttempt", new ObjectSchema()
                .addProperty("referenceId", new StringSchema())
                .addProperty("state", new StringSchema().example("FAILED"))
                .addProperty("failureReason", new StringSchema().example("abandoned")));
        components.addSchemas("WebhookAnswer", required(new ObjectSchema()
                .addProperty("status", enumOf("applied", "duplicate", "ignored", "unknown_payment", "duplicate_charge")), "status"));
        components.addSchemas("PspPayment", new ObjectSchema()
                .addProperty("id", new StringSchema())
                .addProperty("referenceId", new StringSchema())
                .addProperty("paymentType", new StringSchema().example("DEPOSIT"))
                .addProperty("state", new StringSchema().example("COMPLETED"))
                .addProperty("amount", OpenApiConfig.money())
                .addProperty("currency", currency())
                .addProperty("parentPaymentId", new StringSchema())
                .addProperty("errorCode", new StringSchema())
                .description("The PSP payment object (psp-api.md); unknown fields are ignored"));
    }

    /** A nested record's simple name ({@code OutboxAdminStore.Row}) says too little at the top level. */
    static void rename(Components components, String from, String to) {
        if (components.getSchemas() != null && components.getSchemas().containsKey(from)) {
            components.addSchemas(to, components.getSchemas().remove(from));
        }
    }

    private static Schema<String> currency() {
        return new StringSchema().pattern("^[A-Z]{3}$").example("EUR").description("ISO-4217");
    }

    private static Schema<String> enumOf(String... values) {
        StringSchema schema = new StringSchema();
        schema.setEnum(List.of(values));
        return schema;
    }

    private static Schema<?> required(Schema<?> schema, String... names) {
        schema.setRequired(List.of(names));
        return schema;
    }
}
