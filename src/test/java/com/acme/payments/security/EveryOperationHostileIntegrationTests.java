package com.acme.payments.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Shop;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The contract's "Hostile input" invariants on every operation of {@code docs/openapi.json}, read at test time
 * (an endpoint is covered the day it is described): generated hostile variants — wrong types, invalid JSON and
 * UTF-8, NUL, lone surrogates and control characters, huge and deeply nested bodies, broken percent-encodings
 * in path and query, hostile headers, multipart without a boundary, other Content-Types, methods not served —
 * over real HTTP, with no credential, a shop key and an admin key. Every answer: never a 500 (a 503 only for
 * the service's own state), a problem body on every 4xx, no row of the main tables changed by a refused request,
 * and no ERROR line. It asserts no particular 400 (strict JSON is decided elsewhere), only these invariants.
 */
@DisplayName("Hostile input: every operation of the OpenAPI description, generated hostile variants")
class EveryOperationHostileIntegrationTests extends StripeIntegrationTest {

    private static final Path DESCRIPTION = Path.of("docs/openapi.json");
    private static final long SEED = 20261206L;
    private static final int MINIMUM_REQUESTS = 2500;
    private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");
    /** 503s that are the service's own state, never the request's. */
    private static final Set<String> SERVICE_STATE = Set.of("database-unavailable", "concurrent-update",
            "service-busy", "not-configured", "stripe-event-in-flight");
    /** The money and provider tables; the operator audit trail is left out: it records refused actions too. */
    private static final List<String> TABLES = List.of("orders", "psp_attempt", "psp_refund_attempt",
            "psp_payment_operation", "psp_webhook_event", "outbox", "processed_webhook_events", "billing_user",
            "billing_subscription", "billing_grant", "billing_purchase", "billing_invoice", "api_key");
    private static final String[] CREDENTIALS = { null, "Bearer " + Shop.SHOP_KEY, "Bearer " + Shop.ADMIN_KEY };
    private static final List<String> BROKEN_ENCODINGS = List.of("%zz", "%FF", "%00", "a%00b", "%ED%A0%80",
            "%ED%B0%80", "%C0%AE", "%", "a%2", "%E2%82");
    private static final Pattern PATH_VARIABLE = Pattern.compile("\\{([^}]+)}");

    record Operation(String method, String path, List<String> query, List<String> headers, List<String> fields) {
    }

    record Variant(String name, String method, String target, Map<String, String> headers, byte[] body) {
    }

    @Test
    @DisplayName("no 500, a problem on every 4xx, nothing changed by a refusal, no ERROR line")
    void everyOperationSurvivesHostileVariants() {
        List<Operation> operations = operations();
        assertThat(operations).as("operations in %s", DESCRIPTION).hasSizeGreaterThanOrEqualTo(28);
        HostileJson.seed(SEED);
        List<Variant> variants = new ArrayList<>();
        for (Operation operation : operations) {
            for (String credential : CREDENTIALS) {
                variants.addAll(variants(operation, credential));
            }
        }

        RawHttp raw = new RawHttp(port);
        List<String> failures = new ArrayList<>();
        Map<Integer, Integer> statuses = new TreeMap<>();
        String baseline = snapshot();
        try (ErrorLines errors = new ErrorLines()) {
            for (Variant v : variants) {
                RawHttp.Response answer = raw.send(v.method(), v.target(), v.headers(), v.body());
                statuses.merge(answer.status(), 1, Integer::sum);
                String wrong = judge(answer);
                if (answer.status() >= 400 && answer.status() < 500) {
                    String now = snapshot();
                    if (!now.equals(baseline)) {
                        wrong = (wrong == null ? "" : wrong + "; ") + "a refusal changed rows: " + baseline + " -> " + now;
                    }
                    baseline = now;
                } else {
                    baseline = snapshot(); // an accepted request may change rows; the next refusal is held to that
                }
                if (wrong != null) {
                    failures.add(v.name() + " " + v.method() + " " + RawHttp.abbreviate(v.target()) + " as "
                            + v.headers().getOrDefault("Authorization", "anonymous") + ": " + answer.status() + " "
                            + RawHttp.abbreviate(answer.body()) + " — " + wrong);
                }
            }
            System.out.printf("hostile input over %d operations: %d requests sent; statuses %s%n", operations.size(),
                    variants.size(), statuses);
            assertThat(failures).as("answers breaking the invariants (%d of %d)", failures.size(), variants.size())
                    .isEmpty();
            assertThat(errors.lines()).as("ERROR lines written for hostile requests").isEmpty();
        }
        assertThat(variants.size()).as("requests sent").isGreaterThanOrEqualTo(MINIMUM_REQUESTS);
    }

    /** Why the answer breaks an invariant; null when it does not. */
    private static String judge(RawHttp.Response answer) {
        int status = answer.status();
        if (answer.body().contains("Exception") || answer.body().contains("\tat ")) {
            return "the body carries an exception";
        }
        if (status < 400) {
            return null;
        }
        if (!answer.contentType().startsWith("application/problem+json")) {
            return "not a problem body (" + answer.contentType() + ")";
        }
        JsonNode problem;
        try {
            problem = JsonMapper.builder().build().readTree(answer.body());
        } catch (RuntimeException e) {
            return "a problem body that is not JSON";
        }
        if (problem.path("status").asInt() != status || !problem.path("type").isString()) {
            return "a problem without its status or type";
        }
        if (status >= 500) {
            String type = problem.path("type").asString();
            String slug = type.substring(type.lastIndexOf('/') + 1);
            if (status != 503 || !SERVICE_STATE.contains(slug)) {
                return "a " + status + " (" + slug + ") for what a request carried";
            }
        }
        return null;
    }

    // ---- the variants --------------------------------------------------------------------------------------

    private static List<Variant> variants(Operation op, String credential) {
        List<Variant> out = new ArrayList<>();
        String method = op.method();
        String target = fill(op.path(), Map.of());
        Map<String, String> base = headers(op, credential);
        byte[] json = "{}".getBytes(StandardCharsets.UTF_8);

        // bodies: not an object, truncated, invalid UTF-8, deep, wrong types and hostile text in each field
        for (int i = 0; i < 3; i++) {
            out.add(new Variant("not an object", method, target, base, HostileJson.sample(HostileJson.notAnObject())));
        }
        out.add(new Variant("invalid UTF-8", method, target, base,
                new byte[] { '{', '"', 'a', '"', ':', '"', (byte) 0xC3, '(', (byte) 0xFF, '"', '}' }));
        out.add(new Variant("deeply nested", method, target, base, HostileJson.sample(HostileJson.deeplyNested())));
        List<String> fields = op.fields().isEmpty() ? List.of("x") : op.fields();
        Arbitrary<byte[]> hostileValue = Arbitraries.oneOf(HostileJson.anyValue(true, HostileJson.UNICODE_EDGES),
                HostileJson.unstorableString(), HostileJson.wrongTyped(), controlText());
        for (String field : fields) {
            for (int i = 0; i < 2; i++) {
                out.add(new Variant("hostile " + field, method, target, base,
                        concat("{\"" + field + "\":", HostileJson.sample(hostileValue), "}")));
            }
        }
        if (credential != null && credential.contains(Shop.ADMIN_KEY)) {
            out.add(new Variant("2 MiB body", method, target, base, new byte[2 * 1024 * 1024]));
            out.add(new Variant("huge value", method, target, base,
                    concat("{\"" + fields.get(0) + "\":", HostileJson.sample(HostileJson.huge()), "}")));
        }

        // Content-Types the API does not read, and a multipart type without a boundary
        for (String type : List.of("multipart/form-data", "multipart/mixed; boundary=", "text/plain", "",
                "application/x-www-form-urlencoded", "application/json; charset=utf-16", "garbage")) {
            out.add(new Variant("Content-Type '" + type + "'", method, target, with(base, "Content-Type", type), json));
        }

        // broken percent-encodings, NUL and lone surrogates in each path variable and query parameter
        Matcher variable = PATH_VARIABLE.matcher(op.path());
        while (variable.find()) {
            for (String broken : sample(BROKEN_ENCODINGS, 4)) {
                out.add(new Variant("path " + variable.group(1) + "=" + broken, method,
                        fill(op.path(), Map.of(variable.group(1), broken)), base, null));
            }
            out.add(new Variant("path " + variable.group(1) + " long", method,
                    fill(op.path(), Map.of(variable.group(1), "a".repeat(3000))), base, null));
        }
        List<String> query = op.query().isEmpty() ? List.of("q") : op.query();
        for (String name : query) {
            for (String broken : sample(BROKEN_ENCODINGS, 4)) {
                out.add(new Variant("query " + name + "=" + broken, method, target + "?" + name + "=" + broken, base, null));
            }
            String text = HostileJson.sample(HostileJson.edgyText(HostileJson.UNICODE_EDGES));
            out.add(new Variant("query " + name + " hostile text", method,
                    target + "?" + name + "=" + URLEncoder.encode(text, StandardCharsets.UTF_8), base, null));
        }

        // hostile headers: every declared one, then credentials and negotiation
        for (String header : op.headers()) {
            out.add(new Variant("header " + header + " with a control character", method, target,
                    with(base, header, "a\u0001b"), json));
            out.add(new Variant("header " + header + " long", method, target, with(base, header, "k".repeat(9000)), json));
        }
        out.add(new Variant("Authorization garbage", method, target, with(base, "Authorization", "Bearer \u00ff\u00fe"), null));
        out.add(new Variant("Authorization Basic", method, target, with(base, "Authorization", "Basic !!!"), null));
        out.add(new Variant("Accept XML", method, target, with(base, "Accept", "application/xml"), null));
        out.add(new Variant("X-Forwarded-For markup", method, target, with(base, "X-Forwarded-For", "<script>"), null));

        // methods the operation's path does not serve
        for (String other : List.of("TRACE", "PUT", "DELETE", "PATCH", "FOO")) {
            out.add(new Variant("method " + other, other, target, base, null));
        }
        return out;
    }

    /** Text with CR, LF, ESC, a bidi override and a zero-width joiner, as a JSON string (escaped or raw). */
    private static Arbitrary<byte[]> controlText() {
        return HostileJson.edgyText(List.of("\r\n", "\u001b[31m", "\u202E", "\u200D", "\u0007", "\u0085"))
                .map(text -> HostileJson.stringLiteral(text, true));
    }

    private static List<String> sample(List<String> values, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(HostileJson.sample(Arbitraries.of(values)));
        }
        return out;
    }

    /** The path with every variable filled (an id no row has, unless a hostile value is given). */
    private static String fill(String path, Map<String, String> values) {
        Matcher variable = PATH_VARIABLE.matcher(path);
        StringBuilder filled = new StringBuilder();
        while (variable.find()) {
            variable.appendReplacement(filled, Matcher.quoteReplacement(values.getOrDefault(variable.group(1), "unknown-1")));
        }
        return variable.appendTail(filled).toString();
    }

    private static Map<String, String> headers(Operation op, String credential) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (credential != null) {
            headers.put("Authorization", credential);
        }
        for (String header : op.headers()) {
            headers.put(header, "hostile-" + header.length()); // a well-formed value: an unsigned webhook, a fresh key
        }
        return headers;
    }

    private static Map<String, String> with(Map<String, String> headers, String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return copy;
    }

    private static byte[] concat(Object... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof byte[] bytes ? bytes : part.toString().getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    // ---- the description and the rows ----------------------------------------------------------------------

    /** Every operation of the committed description, with its parameters and its body's top-level fields. */
    static List<Operation> operations() {
        JsonNode doc;
        try {
            doc = JsonMapper.builder().build().readTree(Files.readString(DESCRIPTION));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Operation> operations = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : doc.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> entry : path.getValue().properties()) {
                if (!METHODS.contains(entry.getKey())) {
                    continue;
                }
                JsonNode op = entry.getValue();
                List<String> query = new ArrayList<>();
                List<String> headers = new ArrayList<>();
                for (JsonNode parameter : op.path("parameters")) {
                    switch (parameter.path("in").asString()) {
                        case "query" -> query.add(parameter.path("name").asString());
                        case "header" -> headers.add(parameter.path("name").asString());
                        default -> { }
                    }
                }
                List<String> fields = new ArrayList<>();
                JsonNode schema = op.path("requestBody").path("content").path("application/json").path("schema");
                String ref = schema.path("$ref").asString("");
                if (ref.startsWith("#/components/schemas/")) {
                    schema = doc.path("components").path("schemas").path(ref.substring("#/components/schemas/".length()));
                }
                schema.path("properties").propertyNames().forEach(fields::add);
                operations.add(new Operation(entry.getKey().toUpperCase(java.util.Locale.ROOT), path.getKey(), query,
                        headers, fields));
            }
        }
        return operations;
    }

    /** Row counts of the main tables and the orders' states, in one statement. */
    private String snapshot() {
        StringBuilder sql = new StringBuilder("SELECT concat_ws(' '");
        for (String table : TABLES) {
            sql.append(", '").append(table).append("=' || (SELECT count(*) FROM ").append(table).append(")");
        }
        sql.append(", 'orders.status=' || (SELECT md5(coalesce(string_agg(id::text || status, ',' ORDER BY id), '')) FROM orders))");
        return jdbc.sql(sql.toString()).query(String.class).single();
    }
}
