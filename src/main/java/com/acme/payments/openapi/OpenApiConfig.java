package com.acme.payments.openapi;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Stream;

import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.acme.payments.common.web.Caller;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.tags.Tag;

/**
 * The frame of the OpenAPI description: the bearer credentials (a key with scopes, an order's client token), the problem body, money as a
 * decimal string. Each operation's id, summary, bodies and success answers come from its controller's
 * annotations and records (the id is written out, {@code @Operation(operationId = …)}, so a generated
 * client's names survive a Java method's rename or move; OpenApiIntegrationTests insists); {@link AccessDocs} adds who may call it (the scopes of its {@code @Allow}) and
 * {@link ProblemDocs} its problems (from {@code @ProblemAnswers} and {@code ProblemType}).
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfig {

    static final String API_KEY = "apiKey";
    static final String CLIENT_TOKEN = "clientToken";
    static final String PROBLEM = "Problem";

    static {
        // The Caller parameter is resolved from the Authorization header, not a query parameter.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class);
        // Money is read exactly from a decimal string (a JSON number is accepted too), never a double.
        SpringDocUtils.getConfig().replaceWithSchema(BigDecimal.class, money());
    }

    @Bean
    OpenAPI paymentsOpenApi() {
        return new OpenAPI()
                .info(new Info().title("payments").version("1")
                        .description("""
                                Checkout, refunds, capture/void and webhooks for shops. JSON in and out; money is a \
                                decimal string in major units with an ISO-4217 currency; errors are RFC 9457 \
                                `application/problem+json` with a stable `type` \
                                (`https://payments.acme.example/problems/<slug>`). Answers come in this precedence: \
                                401/403, then 404, then 400, then 409/422. Bodies over 1 MiB: 413."""))
                .servers(List.of(new Server().url("/").description("this service (behind its load balancer)")))
                .tags(Stream.of("Orders", "Checkout", "Refunds", "Capture and void", "Operations", "Webhooks")
                        .map(name -> new Tag().name(name)).toList())
                .components(new Components()
                        .addSecuritySchemes(API_KEY, bearer("""
                                A key with scopes (each operation names those it admits in x-scopes): a \
                                SHOP_API_KEYS entry holds orders, an ADMIN_API_KEYS entry every scope, a key issued \
                                with POST /api/admin/keys the scopes it was issued with. Without one of them: 403 \
                                insufficient-scope."""))
                        .addSecuritySchemes(CLIENT_TOKEN, bearer(
                                "The order's clientToken (returned once by POST /api/orders): acts on that order only.")));
    }

    @Bean
    AccessDocs accessDocs() {
        return new AccessDocs();
    }

    @Bean
    ProblemDocs problemDocs() {
        return new ProblemDocs();
    }

    @Bean
    ContractDocs contractDocs() {
        return new ContractDocs();
    }

    @Bean
    ShopEventDocs shopEventDocs() {
        return new ShopEventDocs();
    }

    static Schema<String> money() {
        Schema<String> money = new StringSchema().format("decimal").pattern("^-?[0-9]+(\\.[0-9]+)?$");
        money.description("A decimal string in major units (\"10.01\"); a JSON number is also accepted and read "
                + "exactly. No more fraction digits than the currency has.");
        return money.example("10.01");
    }

    static Schema<String> currency() {
        return new StringSchema().pattern("^[A-Z]{3}$").example("EUR").description("ISO-4217");
    }

    private static SecurityScheme bearer(String description) {
        return new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer").description(description);
    }

    /** Added by the customizer: springdoc drops schemas of the bean that nothing refers to yet. */
    static void addProblemSchemas(Components components) {
        components.addSchemas(PROBLEM, problem());
        components.addSchemas("FieldError", new ObjectSchema()
                .addProperty("field", new StringSchema().example("amount"))
                .addProperty("message", new StringSchema().example("must be greater than zero")));
    }

    @SuppressWarnings("rawtypes")
    private static Schema problem() {
        Schema<?> problem = new ObjectSchema()
                .addProperty("type", new StringSchema().format("uri")
                        .example("https://payments.acme.example/problems/refund-exceeds-remainder")
                        .description("Stable: https://payments.acme.example/problems/<slug>; clients branch on the slug."))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri-reference"))
                .addProperty("errors", new ArraySchema().items(new Schema<>().$ref("#/components/schemas/FieldError"))
                        .description("Validation problems: the offending fields."))
                .addProperty("errorCode", new StringSchema().description("The PSP's error code (checkout-declined, psp-rejected)."))
                .addProperty("referenceId", new StringSchema().description("The attempt's reference (checkout problems)."))
                .addProperty("errorId", new StringSchema().description("An opaque id the log carries (internal-error)."));
        problem.setRequired(List.of("type", "title", "status"));
        problem.setDescription("RFC 9457 problem details; never a stack trace, SQL, a key or a header value.");
        return problem;
    }
}
