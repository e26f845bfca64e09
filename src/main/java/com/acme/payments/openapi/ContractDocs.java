package com.acme.payments.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springdoc.core.customizers.OpenApiCustomizer;

import com.acme.payments.common.security.Allow.Role;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;

/**
 * The contract's answers per operation (http-contract.md): success bodies of the endpoints that answer
 * a map, the problem {@code type} slugs, the headers that carry meaning. The problems every endpoint can
 * give (401/403 where a credential is required, 413, 500, 503) are added to all, the ones to come
 * (Stripe) included. An entry whose path does not exist is skipped.
 */
class ContractDocs implements OpenApiCustomizer {

    private static final String JSON = "application/json";
    private static final List<String> MONEY_FIELDS = List.of("amount", "paidAmount", "refundedAmount");

    private final Map<String, Doc> table = new LinkedHashMap<>();

    ContractDocs() {
        op("POST /api/orders", "Orders", "Create an order (idempotent on orderRef)")
                .success(201, "Created; `clientToken` appears only in this answer", "OrderCreated")
                .success(200, "The same body again: the same order, without a token", "OrderCreated")
                .problems("400 validation-failed", "400 malformed-request", "409 order-ref-conflict");
        op("GET /api/orders/{orderRef}", "Orders", "Read an order").problems("404 not-found");
        op("POST /api/orders/{orderRef}/checkout", "Checkout",
                "Start (or replay) the checkout: the PSP's hosted page to send the customer to")
                .optionalBody()
                .success(200, "The redirect; a repeat returns the stored redirectUrl", "CheckoutStarted")
                .problems("404 not-found", "400 validation-failed", "400 malformed-request",
                        "409 payment-outcome-unknown", "409 checkout-in-progress", "409 order-not-payable",
                        "422 checkout-declined", "502 psp-rejected");
        op("GET /api/orders/{orderRef}/return", "Checkout",
                "The customer is back: poll the PSP, apply the result, answer the order").problems("404 not-found");
        op("POST /api/orders/{orderRef}/refunds", "Refunds", "Refund part or all of a PAID order")
                .header("Idempotency-Key", "The caller's refund key: one key is one refund forever; "
                        + "1-255 printable ASCII characters. Missing: 400 validation-failed.")
                .success(201, "The first answer for this key", "Refund")
                .success(200, "A replay of the key: the same body", "Refund")
                .problems("404 not-found", "400 validation-failed", "400 malformed-request",
                        "409 refund-outcome-unknown", "409 refund-blocked-by-unknown", "409 order-not-refundable",
                        "422 refund-exceeds-remainder", "422 refund-key-reused");
        op("GET /api/orders/{orderRef}/refunds", "Refunds", "The order's refund attempts")
                .successList(200, "Oldest first", "Refund").problems("404 not-found");
        for (String action : List.of("capture", "void")) {
            op("POST /api/orders/{orderRef}/" + action, "Capture and void",
                    (action.equals("capture") ? "Capture" : "Void") + " an AUTHORIZED order")
                    .problems("404 not-found", "409 order-not-authorized", "409 payment-outcome-unknown",
                            "502 psp-rejected");
        }
        op("POST /api/admin/attempts/{referenceId}/abandon", "Operations",
                "Close an UNKNOWN attempt the PSP confirmed never existed; the PSP is asked once more first "
                        + "(recorded with who, why and when)")
                .optionalBody()
                .success(200, "The attempt, now FAILED with reason abandoned", "AbandonedAttempt")
                .problems("404 not-found", "400 validation-failed", "400 malformed-request", "409 attempt-not-open",
                        "409 payment-outcome-unknown");
        op("POST /api/admin/refunds/{referenceId}/abandon", "Operations",
                "Close an UNKNOWN refund the PSP confirmed never existed: its reservation is released")
                .optionalBody()
                .success(200, "The refund, now FAILED with errorCode abandoned", "Refund")
                .problems("404 not-found", "400 validation-failed", "400 malformed-request", "409 refund-not-open",
                        "409 refund-outcome-unknown");
        op("GET /api/admin/unresolved", "Operations",
                "Every IN_FLIGHT or UNKNOWN checkout attempt, refund and capture/void, oldest first");
        op("GET /api/admin/duplicate-charges", "Operations", "Second charges: COMPLETED payments an order did not book");
        op("POST /api/admin/duplicate-charges/{pspPaymentId}/refund", "Operations",
                "Refund a second charge in full, exactly once however often it is called")
                .optionalBody()
                .problems("404 not-found", "400 validation-failed", "400 malformed-request",
                        "409 refund-outcome-unknown");
        op("GET /api/admin/outbox", "Operations", "List outbox rows by state (pending, dead, delivered)")
                .admin().successList(200, "Ordered by id; page with afterId", "OutboxRow")
                .problems("400 validation-failed");
        op("POST /api/admin/outbox/{id}/redrive", "Operations", "Put a dead outbox row back in line")
                .admin().success(200, "The row, pending again", "OutboxRow")
                .problems("404 not-found", "409 outbox-row-not-dead");
        op("POST /webhooks/psp", "Webhooks", "The PSP's payment webhook")
                .header("Signature", "HMAC-SHA256 of the raw body bytes with PSP_SIGNING_KEY, hex or base64; "
                        + "checked before any parsing")
                .rawBody("PspPayment", "The PSP payment object, verified as raw bytes: send it unchanged")
                .success(200, "Recorded", "WebhookAnswer")
                .problems("401 invalid-signature", "400 malformed-request");
        op("POST /webhooks/stripe", "Webhooks", "Stripe billing events (docs/stripe.md)")
                .header("Stripe-Signature", "t=<timestamp>,v1=<HMAC-SHA256> with STRIPE_WEBHOOK_SECRET, "
                        + "tolerance 300 s; checked over the raw body")
                .rawBody(null, "A Stripe event, verified as raw bytes: send it unchanged");
    }

    @Override
    public void customise(OpenAPI api) {
        OpenApiConfig.addProblemSchemas(api.getComponents());
        ResponseSchemas.addTo(api.getComponents());
        ResponseSchemas.rename(api.getComponents(), "Row", "OutboxRow");
        markMoney(api.getComponents().getSchemas());
        if (api.getPaths() == null) {
            return;
        }
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            Doc doc = table.get(method.name() + " " + path);
            if (doc != null) {
                doc.applyTo(operation);
            }
            addCommonProblems(path, operation);
            sortResponses(operation);
        }));
    }

    private static void addCommonProblems(String path, Operation operation) {
        boolean credential = operation.getSecurity() != null && !operation.getSecurity().isEmpty();
        if (credential) {
            addProblem(operation, 401, "unauthorized");
            addProblem(operation, 403, "forbidden");
        }
        addProblem(operation, 413, "payload-too-large");
        addProblem(operation, 500, "internal-error");
        addProblem(operation, 503, "database-unavailable");
        addProblem(operation, 503, "concurrent-update");
    }

    /** Adds a slug to the operation's problem response for that status (merging with those listed). */
    private static void addProblem(Operation operation, int status, String slug) {
        Doc.problemsOf(operation).computeIfAbsent(status, s -> new ArrayList<>());
        List<String> slugs = Doc.problemsOf(operation).get(status);
        if (!slugs.contains(slug)) {
            slugs.add(slug);
        }
        operation.getResponses().addApiResponse(Integer.toString(status), ProblemCatalog.response(status, slugs));
    }

    private static void sortResponses(Operation operation) {
        ApiResponses sorted = new ApiResponses();
        new TreeMap<>(operation.getResponses()).forEach(sorted::addApiResponse);
        operation.setResponses(sorted);
        operation.getExtensions().remove(Doc.PROBLEMS_EXTENSION);
        if (operation.getExtensions().isEmpty()) {
            operation.setExtensions(null);
        }
    }

    /** The views carry money as strings already; say which strings are decimal amounts. */
    @SuppressWarnings("rawtypes")
    private static void markMoney(Map<String, Schema> schemas) {
        if (schemas == null) {
            return;
        }
        schemas.values().forEach(schema -> {
            Map<String, Schema> properties = schema.getProperties();
            if (properties == null) {
                return;
            }
            MONEY_FIELDS.forEach(field -> {
                Schema property = properties.get(field);
                if (property != null && "string".equals(property.getType()) && property.get$ref() == null) {
                    properties.put(field, OpenApiConfig.money());
                }
            });
        });
    }

    private Doc op(String key, String tag, String summary) {
        Doc doc = new Doc(tag, summary);
        table.put(key, doc);
        return doc;
    }

    /** One operation's documented answers. */
    private static final class Doc {

        static final String PROBLEMS_EXTENSION = "x-acme-problems";

        private final String tag;
        private final String summary;
        private final List<Object[]> successes = new ArrayList<>();
        private final List<String> problems = new ArrayList<>();
        private final Map<String, String> headers = new LinkedHashMap<>();
        private boolean optionalBody;
        private boolean admin;
        private boolean raw;
        private String rawSchema;
        private String rawDescription;

        Doc(String tag, String summary) {
            this.tag = tag;
            this.summary = summary;
        }

        Doc success(int status, String description, String schema) {
            successes.add(new Object[] { status, description, new Schema<>().$ref(ref(schema)) });
            return this;
        }

        Doc successList(int status, String description, String schema) {
            successes.add(new Object[] { status, description,
                    new io.swagger.v3.oas.models.media.ArraySchema().items(new Schema<>().$ref(ref(schema))) });
            return this;
        }

        Doc problems(String... statusAndSlug) {
            problems.addAll(List.of(statusAndSlug));
            return this;
        }

        Doc header(String name, String description) {
            headers.put(name, description);
            return this;
        }

        Doc optionalBody() {
            optionalBody = true;
            return this;
        }

        Doc admin() {
            admin = true;
            return this;
        }

        Doc rawBody(String schema, String description) {
            raw = true;
            rawSchema = schema;
            rawDescription = description;
            return this;
        }

        void applyTo(Operation operation) {
            operation.setTags(List.of(tag));
            operation.setSummary(summary);
            if (admin) {
                operation.setSecurity(AccessDocs.requirements(List.of(Role.ADMIN)));
            }
            headers.forEach((name, description) -> header(operation, name, description));
            if (operation.getRequestBody() != null) {
                operation.getRequestBody().setRequired(!optionalBody);
                if (raw) {
                    Schema<?> schema = rawSchema == null ? new io.swagger.v3.oas.models.media.ObjectSchema()
                            : new Schema<>().$ref(ref(rawSchema));
                    operation.getRequestBody().description(rawDescription)
                            .content(new Content().addMediaType(JSON, new MediaType().schema(schema)));
                }
            }
            if (!successes.isEmpty()) {
                ApiResponses responses = new ApiResponses();
                for (Object[] success : successes) {
                    responses.addApiResponse(success[0].toString(), new ApiResponse().description((String) success[1])
                            .content(new Content().addMediaType(JSON, new MediaType().schema((Schema<?>) success[2]))));
                }
                operation.setResponses(responses);
            }
            for (String problem : problems) {
                int space = problem.indexOf(' ');
                int status = Integer.parseInt(problem.substring(0, space));
                String slug = problem.substring(space + 1);
                problemsOf(operation).computeIfAbsent(status, s -> new ArrayList<>()).add(slug);
                operation.getResponses().addApiResponse(Integer.toString(status),
                        ProblemCatalog.response(status, problemsOf(operation).get(status)));
            }
        }

        /** The slugs listed so far per status, kept on the operation while the document is built. */
        @SuppressWarnings("unchecked")
        static Map<Integer, List<String>> problemsOf(Operation operation) {
            if (operation.getExtensions() == null) {
                operation.setExtensions(new LinkedHashMap<>());
            }
            return (Map<Integer, List<String>>) operation.getExtensions()
                    .computeIfAbsent(PROBLEMS_EXTENSION, k -> new TreeMap<Integer, List<String>>());
        }

        private static void header(Operation operation, String name, String description) {
            Parameter header = null;
            if (operation.getParameters() != null) {
                header = operation.getParameters().stream()
                        .filter(p -> "header".equals(p.getIn()) && name.equalsIgnoreCase(p.getName()))
                        .findFirst().orElse(null);
            }
            if (header == null) {
                header = new HeaderParameter().name(name).schema(new io.swagger.v3.oas.models.media.StringSchema());
                operation.addParametersItem(header);
            }
            header.required(true).description(description);
        }

        private static String ref(String schema) {
            return "#/components/schemas/" + schema;
        }
    }
}
