package com.acme.payments.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import com.acme.payments.support.Http;
import com.acme.payments.support.Instances;
import com.acme.payments.support.IntegrationTest;

import io.swagger.v3.oas.annotations.Operation;

import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI description at {@code /v3/api-docs}: complete (every controller mapping of the service,
 * those added later included), public, and saying what docs/api.md says.
 */
class OpenApiIntegrationTests extends IntegrationTest {

    private static final String PROBLEMS = "https://payments.acme.example/problems/";

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    private JsonNode doc;

    @BeforeEach
    void fetch() throws Exception {
        Http.Response response = http().get("/v3/api-docs");
        assertThat(response.status()).isEqualTo(200);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/openapi.json"), response.body());
        doc = response.json();
    }

    @Test
    @DisplayName("every controller mapping of com.acme.payments appears in the document with its method")
    void everyControllerMappingIsDocumented() {
        List<String> expected = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : mappings.getHandlerMethods().entrySet()) {
            if (!entry.getValue().getBeanType().getName().startsWith("com.acme.payments.") || forPeople(entry.getValue())) {
                continue;
            }
            RequestMappingInfo info = entry.getKey();
            Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
            assertThat(methods).as("%s declares its HTTP method", entry.getValue()).isNotEmpty();
            for (String pattern : info.getPatternValues()) {
                methods.forEach(method -> expected.add(method + " " + pattern.replaceAll("\\{([^}:]+):[^}]*}", "{$1}")));
            }
        }
        assertThat(expected).as("controller mappings found").hasSizeGreaterThanOrEqualTo(12);

        List<String> missing = new ArrayList<>();
        for (String mapping : expected) {
            String method = mapping.substring(0, mapping.indexOf(' ')).toLowerCase();
            String path = mapping.substring(mapping.indexOf(' ') + 1);
            if (!doc.path("paths").path(path).has(method)) {
                missing.add(mapping);
            }
        }
        assertThat(missing).as("mappings missing from /v3/api-docs").isEmpty();
    }

    @Test
    @DisplayName("every operationId is declared on its handler, unique, and not springdoc's numbered fallback")
    void operationIdsAreStableNames() {
        List<String> undeclared = new ArrayList<>();
        mappings.getHandlerMethods().values().stream()
                .filter(handler -> handler.getBeanType().getName().startsWith("com.acme.payments."))
                .filter(handler -> !forPeople(handler))
                .forEach(handler -> {
                    Operation operation = handler.getMethodAnnotation(Operation.class);
                    if (operation == null || operation.operationId().isBlank()) {
                        undeclared.add(handler.getBeanType().getSimpleName() + "." + handler.getMethod().getName());
                    }
                });
        assertThat(undeclared).as("handlers without @Operation(operationId = ...): a client generator's names "
                + "must not follow Java method names").isEmpty();

        List<String> ids = new ArrayList<>();
        doc.path("paths").forEach(path -> path.forEach(operation -> ids.add(operation.path("operationId").asString())));
        assertThat(ids).as("operations in the document").hasSizeGreaterThanOrEqualTo(12);
        assertThat(ids).as("operationIds").doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(id).as("operationId").matches("[a-z][A-Za-z]*"));
    }

    @Test
    @DisplayName("/v3/api-docs needs no credential; Swagger UI is off outside development")
    void apiDocsArePublicAndSwaggerUiIsOff() {
        assertThat(http().bearer("not-a-key").get("/v3/api-docs").status()).isEqualTo(200);
        assertThat(http().get("/swagger-ui.html").status()).isEqualTo(404);
        assertThat(http().get("/swagger-ui/index.html").status()).isEqualTo(404);
    }

    @Test
    @DisplayName("the bearer credentials (a key with scopes, an order's token), as @Allow enforces them; webhooks need none")
    void securitySchemes() {
        JsonNode schemes = doc.path("components").path("securitySchemes");
        for (String name : List.of("apiKey", "clientToken")) {
            assertThat(schemes.path(name).path("type").asString()).isEqualTo("http");
            assertThat(schemes.path(name).path("scheme").asString()).isEqualTo("bearer");
        }
        assertThat(schemeNames(op("post", "/api/orders"))).containsExactly("apiKey");
        assertThat(scopes(op("post", "/api/orders"))).containsExactly("orders");
        assertThat(schemeNames(op("get", "/api/orders/{orderRef}"))).containsExactly("apiKey", "clientToken");
        assertThat(scopes(op("get", "/api/orders/{orderRef}"))).containsExactly("orders", "read");
        assertThat(scopes(op("post", "/api/orders/{orderRef}/refunds"))).containsExactly("payments");
        assertThat(scopes(op("get", "/api/admin/outbox"))).containsExactly("operator", "read");
        assertThat(scopes(op("get", "/api/admin/keys"))).containsExactly("keys");
        assertThat(op("post", "/api/orders/{orderRef}/refunds").path("description").asString())
                .contains("Access: a key with scope `payments`.");
        assertThat(op("post", "/webhooks/psp").has("security")).isFalse();

        List<String> unsecured = new ArrayList<>();
        doc.path("paths").properties().forEach(path -> path.getValue().properties().forEach(method -> {
            if (path.getKey().startsWith("/api/") && schemeNames(method.getValue()).isEmpty()) {
                unsecured.add(method.getKey() + " " + path.getKey());
            }
        }));
        assertThat(unsecured).as("API operations documented without a credential").isEmpty();
        assertThat(slugs(op("post", "/api/orders/{orderRef}/capture"), 401)).containsExactly("unauthorized");
        assertThat(slugs(op("post", "/api/orders/{orderRef}/capture"), 403)).containsExactly("forbidden",
                "insufficient-scope");
    }

    @Test
    @DisplayName("problem+json answers carry the contract's type slugs per operation")
    void problemSlugsPerOperation() {
        JsonNode refund = op("post", "/api/orders/{orderRef}/refunds");
        assertThat(slugs(refund, 409)).containsExactlyInAnyOrder("refund-outcome-unknown",
                "refund-blocked-by-unknown", "order-not-refundable");
        assertThat(slugs(refund, 422)).containsExactlyInAnyOrder("refund-exceeds-remainder", "refund-key-reused");
        assertThat(refund.path("responses").path("409").path("headers").has("Retry-After")).isTrue();
        assertThat(refund.path("responses").has("201")).isTrue();

        JsonNode checkout = op("post", "/api/orders/{orderRef}/checkout");
        assertThat(slugs(checkout, 409)).containsExactlyInAnyOrder("payment-outcome-unknown",
                "checkout-in-progress", "order-not-payable");
        assertThat(slugs(checkout, 422)).containsExactly("checkout-declined");
        assertThat(slugs(checkout, 502)).containsExactly("psp-rejected");
        assertThat(slugs(op("post", "/api/orders"), 409)).containsExactly("order-ref-conflict");
        assertThat(slugs(op("post", "/api/orders/{orderRef}/void"), 409)).contains("order-not-authorized");
        assertThat(slugs(op("post", "/webhooks/psp"), 401)).containsExactly("invalid-signature");
        assertThat(slugs(op("get", "/api/orders/{orderRef}"), 404)).containsExactly("not-found");
        assertThat(slugs(op("get", "/api/orders/{orderRef}"), 413)).containsExactly("payload-too-large");
        assertThat(doc.path("components").path("schemas").path("Problem").path("properties").has("errors")).isTrue();
    }

    @Test
    @DisplayName("money is a decimal string; request bodies are the request records, webhooks raw JSON with their signature header")
    void bodiesHeadersAndMoney() {
        JsonNode schemas = doc.path("components").path("schemas");
        for (String[] field : new String[][] { { "CreateOrderRequest", "amount" }, { "RefundRequest", "amount" },
                { "OrderView", "amount" }, { "OrderView", "paidAmount" }, { "OrderView", "refundedAmount" },
                { "OrderCreated", "amount" }, { "Refund", "amount" } }) {
            JsonNode money = schemas.path(field[0]).path("properties").path(field[1]);
            assertThat(money.path("type").asString()).as("%s.%s", field[0], field[1]).isEqualTo("string");
            assertThat(money.path("format").asString()).as("%s.%s", field[0], field[1]).isEqualTo("decimal");
        }
        assertThat(bodySchema(op("post", "/api/orders"))).isEqualTo("#/components/schemas/CreateOrderRequest");
        assertThat(bodySchema(op("post", "/api/orders/{orderRef}/refunds"))).isEqualTo("#/components/schemas/RefundRequest");
        assertThat(bodySchema(op("post", "/api/orders/{orderRef}/checkout"))).isEqualTo("#/components/schemas/CheckoutRequest");
        assertThat(schemas.path("CreateOrderRequest").path("required").toString()).contains("orderRef", "customer");
        assertThat(header(op("post", "/api/orders/{orderRef}/refunds"), "Idempotency-Key").path("required").asBoolean()).isTrue();
        assertThat(header(op("post", "/webhooks/psp"), "Signature").path("required").asBoolean()).isTrue();
        if (doc.path("paths").has("/webhooks/stripe")) {
            assertThat(header(op("post", "/webhooks/stripe"), "Stripe-Signature").isMissingNode()).isFalse();
        }

        List<String> rawBytes = new ArrayList<>();
        doc.path("paths").properties().forEach(path -> path.getValue().properties().forEach(method -> {
            method.getValue().path("requestBody").path("content").properties().forEach(media -> {
                if ("byte".equals(media.getValue().path("schema").path("format").asString())) {
                    rawBytes.add(method.getKey() + " " + path.getKey());
                }
            });
        }));
        assertThat(rawBytes).as("request bodies documented as bytes (a byte[] parameter without its schema)").isEmpty();
    }

    @Test
    @DisplayName("with springdoc.swagger-ui.enabled=true (the development launcher) Swagger UI answers")
    void swaggerUiInDevelopment() {
        try (ConfigurableApplicationContext dev = Instances.start(Map.of("springdoc.swagger-ui.enabled", "true"))) {
            Http devHttp = new Http("http://localhost:" + dev.getEnvironment().getProperty("local.server.port"));
            Http.Response ui = devHttp.get("/swagger-ui/index.html");
            assertThat(ui.status()).isEqualTo(200);
            assertThat(ui.body()).contains("swagger-ui");
            assertThat(devHttp.get("/v3/api-docs/swagger-config").body()).contains("/v3/api-docs");
        }
    }

    private JsonNode op(String method, String path) {
        JsonNode operation = doc.path("paths").path(path).path(method);
        assertThat(operation.isMissingNode()).as("%s %s documented", method, path).isFalse();
        return operation;
    }

    private static Set<String> schemeNames(JsonNode operation) {
        Set<String> names = new java.util.LinkedHashSet<>();
        operation.path("security").forEach(requirement -> requirement.propertyNames().forEach(names::add));
        return names;
    }

    private static List<String> scopes(JsonNode operation) {
        List<String> scopes = new ArrayList<>();
        operation.path("x-scopes").forEach(scope -> scopes.add(scope.asString()));
        return scopes;
    }

    private static Set<String> slugs(JsonNode operation, int status) {
        JsonNode response = operation.path("responses").path(Integer.toString(status));
        assertThat(response.path("content").has("application/problem+json")).as("%s is problem+json", status).isTrue();
        Set<String> slugs = new TreeSet<>();
        response.path("content").path("application/problem+json").path("schema").path("allOf")
                .forEach(part -> part.path("properties").path("type").path("enum").forEach(type -> {
                    assertThat(type.asString()).startsWith(PROBLEMS);
                    slugs.add(type.asString().substring(PROBLEMS.length()));
                }));
        return slugs;
    }

    @Test
    @DisplayName("the shop's events are the OpenAPI 3.1 webhooks: each type, its Standard Webhooks headers and its data")
    void shopEventsAreTheWebhooks() {
        assertThat(doc.path("openapi").asString()).startsWith("3.1.");
        Map<String, String> dataByType = new java.util.LinkedHashMap<>();
        doc.path("webhooks").properties().forEach(webhook -> {
            JsonNode post = webhook.getValue().path("post");
            JsonNode body = post.path("requestBody").path("content").path("application/json").path("schema");
            assertThat(body.path("required").toString()).contains("id", "type", "createdAt", "data");
            assertThat(body.path("properties").path("type").path("enum").get(0).asString()).isEqualTo(webhook.getKey());
            for (String name : List.of("webhook-id", "webhook-timestamp", "webhook-signature")) {
                assertThat(header(post, name).isMissingNode()).as("%s %s", webhook.getKey(), name).isFalse();
            }
            dataByType.put(webhook.getKey(), body.path("properties").path("data").path("$ref").asString()
                    .replace("#/components/schemas/", ""));
        });
        assertThat(dataByType).containsExactlyInAnyOrderEntriesOf(Map.of("payment.authorized", "OrderView",
                "payment.succeeded", "OrderView", "payment.failed", "OrderView", "payment.voided", "OrderView",
                "refund.succeeded", "RefundLookup", "refund.failed", "RefundLookup", "dispute.opened", "DisputeOpened"));
        JsonNode schemas = doc.path("components").path("schemas");
        assertThat(schemas.path("DisputeOpened").path("properties").path("amount").path("format").asString())
                .isEqualTo("decimal");
        assertThat(schemas.path("RefundLookup").path("properties").has("orderRef")).isTrue();
    }

    private static String bodySchema(JsonNode operation) {
        return operation.path("requestBody").path("content").path("application/json").path("schema").path("$ref").asString();
    }

    private static JsonNode header(JsonNode operation, String name) {
        for (JsonNode parameter : operation.path("parameters")) {
            if ("header".equals(parameter.path("in").asString()) && name.equals(parameter.path("name").asString())) {
                return parameter;
            }
        }
        return tools.jackson.databind.node.MissingNode.getInstance();
    }

    /** The console's pages ({@code @Hidden}, under {@code /console}): server-rendered for people, no API to describe. */
    private static boolean forPeople(HandlerMethod handler) {
        return handler.getBeanType().isAnnotationPresent(io.swagger.v3.oas.annotations.Hidden.class)
                && handler.getBeanType().getName().startsWith("com.acme.payments.console.");
    }
}
