package com.acme.payments.openapi;

import java.util.List;
import java.util.Map;

import org.springdoc.core.customizers.OpenApiCustomizer;

import com.acme.payments.outbox.ShopEvents;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;

/**
 * The shop's events (OpenAPI 3.1 {@code webhooks}): one entry per type, each the POST the service makes to
 * {@code SHOP_EVENTS_URL} with the Standard Webhooks headers and the {@code {id, type, createdAt, data}} body,
 * {@code data} referring to the schema the API answers with (the order view, the refund look-up), so the
 * description of an event cannot drift from the view it carries.
 */
class ShopEventDocs implements OpenApiCustomizer {

    static final String DISPUTE_OPENED = "DisputeOpened";

    /** Each type, what makes it, and the schema of its {@code data}. */
    private static final Map<String, List<String>> EVENTS = new java.util.LinkedHashMap<>();

    static {
        EVENTS.put(ShopEvents.PAYMENT_AUTHORIZED, List.of("The order's payment was authorized (status AUTHORIZED); "
                + "capture or void it.", "OrderView"));
        EVENTS.put(ShopEvents.PAYMENT_SUCCEEDED, List.of("The order is PAID (paid at once, or captured).",
                "OrderView"));
        EVENTS.put(ShopEvents.PAYMENT_FAILED, List.of("A payment attempt failed (status PAYMENT_FAILED, with the "
                + "PSP's errorCode): once per failed attempt; the order is free for a new attempt.", "OrderView"));
        EVENTS.put(ShopEvents.PAYMENT_VOIDED, List.of("An authorized payment was cancelled (voided, or its "
                + "authorization lapsed): status PAYMENT_FAILED.", "OrderView"));
        EVENTS.put(ShopEvents.REFUND_SUCCEEDED, List.of("A refund's pspState became COMPLETED (ours or one made at "
                + "the PSP, origin external): the refund with its orderRef.", "RefundLookup"));
        EVENTS.put(ShopEvents.REFUND_FAILED, List.of("A refund became FAILED (declined, refused, failed after "
                + "acceptance, or abandoned by an operator): the refund with its orderRef.", "RefundLookup"));
        EVENTS.put(ShopEvents.DISPUTE_OPENED, List.of("A payment of the order is disputed (Stripe as the PSP).",
                DISPUTE_OPENED));
    }

    @Override
    public void customise(OpenAPI api) {
        api.getComponents().addSchemas(DISPUTE_OPENED, disputeOpened());
        EVENTS.forEach((type, about) -> api.addWebhooks(type, new PathItem().post(event(type, about.get(0),
                about.get(1)))));
    }

    @SuppressWarnings("rawtypes")
    private static Operation event(String type, String description, String dataSchema) {
        Schema<?> body = new ObjectSchema()
                .addProperty("id", new StringSchema().example("evt_5f0c6f3e0b8e4f0e9d1c2b3a4f5e6d7c")
                        .description("The event's id, also its webhook-id: the same on every retry and resend; dedup on it."))
                .addProperty("type", new StringSchema()._enum(List.of(type)))
                .addProperty("createdAt", new StringSchema().format("date-time")
                        .description("When the transition happened (the event was written), UTC."))
                .addProperty("data", new Schema<>().$ref("#/components/schemas/" + dataSchema));
        body.setRequired(List.of("id", "type", "createdAt", "data"));
        return new Operation().operationId(type.replace(".", "_")).summary(type).description(description
                + " Delivered at least once, in order per order, retried for days; verify it with any Standard "
                + "Webhooks library (SHOP_EVENTS_SECRET) and answer 2xx.")
                .tags(List.of("Events for the shop"))
                .parameters(List.of(header("webhook-id", "The event's id (the body's id)."),
                        header("webhook-timestamp", "Unix seconds of this try."),
                        header("webhook-signature", "v1,<base64 HMAC-SHA256> per secret, space-separated; only "
                                + "when SHOP_EVENTS_SECRET is set.")))
                .requestBody(new RequestBody().required(true).content(new Content().addMediaType("application/json",
                        new MediaType().schema(body))))
                .responses(new ApiResponses().addApiResponse("2XX", new ApiResponse()
                        .description("Accepted; anything else (or no answer) is retried with backoff")));
    }

    private static Parameter header(String name, String description) {
        return new HeaderParameter().name(name).description(description).required(!"webhook-signature".equals(name))
                .schema(new StringSchema());
    }

    @SuppressWarnings("rawtypes")
    private static Schema disputeOpened() {
        Schema<?> schema = new ObjectSchema()
                .addProperty("orderRef", new StringSchema())
                .addProperty("pspPaymentId", new StringSchema().description("The disputed payment (a PaymentIntent)."))
                .addProperty("amount", OpenApiConfig.money())
                .addProperty("currency", OpenApiConfig.currency());
        schema.setRequired(List.of("orderRef", "pspPaymentId", "amount", "currency"));
        return schema;
    }
}
