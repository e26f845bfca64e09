package com.acme.payments.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.acme.payments.common.web.ProblemTypes;

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
 * What each problem {@code type} slug means, and how one status's problems become one documented
 * response: a {@code type} enum of the slugs the operation can answer, an example per slug, and
 * {@code Retry-After} where the slug carries it.
 */
final class ProblemCatalog {

    static final String PROBLEM_JSON = "application/problem+json";

    /** slug → meaning. A slug never changes meaning; new ones are added here. */
    static final Map<String, String> MEANINGS = new LinkedHashMap<>();

    /** Slugs answered with a {@code Retry-After} header. */
    static final Set<String> RETRY_AFTER = Set.of("payment-outcome-unknown", "checkout-in-progress",
            "refund-outcome-unknown", "refund-blocked-by-unknown", "database-unavailable", "concurrent-update",
            "service-busy");

    static {
        MEANINGS.put("unauthorized", "no credential, or one the service does not know");
        MEANINGS.put("forbidden", "a valid credential that may not act on this endpoint or this order");
        MEANINGS.put("not-found", "no such order, attempt or row");
        MEANINGS.put("validation-failed", "missing or invalid fields, listed in `errors`");
        MEANINGS.put("malformed-request", "the body is missing or is not JSON");
        MEANINGS.put("payload-too-large", "the body is over 1 MiB");
        MEANINGS.put("order-ref-conflict", "the orderRef exists with a different amount or currency");
        MEANINGS.put("payment-outcome-unknown",
                "the PSP's answer was lost and the payment is not found yet; retry after Retry-After");
        MEANINGS.put("checkout-in-progress", "another request is creating this order's payment; retry shortly");
        MEANINGS.put("order-not-payable", "the order is already PAID or AUTHORIZED");
        MEANINGS.put("checkout-declined",
                "the payment was declined (errorCode from the PSP); the order is free for a new checkout");
        MEANINGS.put("psp-rejected", "the PSP refused the request (a 4xx, errorCode); nothing was charged");
        MEANINGS.put("refund-outcome-unknown",
                "the PSP's answer is not known yet; retry with the same Idempotency-Key after Retry-After");
        MEANINGS.put("refund-blocked-by-unknown", "another refund on this order is unresolved");
        MEANINGS.put("order-not-refundable", "the order is not PAID");
        MEANINGS.put("refund-exceeds-remainder", "more than what is left to refund (open refunds included)");
        MEANINGS.put("refund-key-reused", "the Idempotency-Key was used with a different amount or currency");
        MEANINGS.put("order-not-authorized", "only AUTHORIZED orders can be captured or voided");
        MEANINGS.put("attempt-not-open",
                "only an UNKNOWN attempt the PSP, asked once more, still does not show can be abandoned");
        MEANINGS.put("refund-not-open",
                "only an UNKNOWN refund the PSP, asked once more, still does not show can be abandoned");
        MEANINGS.put("invalid-signature", "the Signature header is missing or does not match the raw body");
        MEANINGS.put("outbox-row-not-dead", "only a dead outbox row can be re-driven");
        MEANINGS.put("database-unavailable", "the database cannot be reached; retry shortly");
        MEANINGS.put("concurrent-update", "another request changed the same data; retry shortly");
        MEANINGS.put("service-busy", "contention; retry shortly");
        MEANINGS.put("internal-error", "an unexpected failure; quote errorId to support");
    }

    private ProblemCatalog() {
    }

    static ApiResponse response(int status, List<String> slugs) {
        StringBuilder description = new StringBuilder("Problem:");
        Map<String, Example> examples = new LinkedHashMap<>();
        List<Object> types = new java.util.ArrayList<>();
        boolean retry = false;
        for (String slug : slugs) {
            String meaning = MEANINGS.get(slug);
            if (meaning == null) {
                throw new IllegalStateException("problem slug " + slug + " has no meaning in ProblemCatalog");
            }
            description.append(" `").append(slug).append("` — ").append(meaning).append(';');
            types.add(ProblemTypes.of(slug).toString());
            examples.put(slug, new Example().summary(meaning)
                    .value(Map.of("type", ProblemTypes.of(slug).toString(), "status", status)));
            retry |= RETRY_AFTER.contains(slug);
        }
        description.setLength(description.length() - 1);
        Schema<Object> typeEnum = new Schema<>();
        typeEnum.setType("string");
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
