package com.acme.payments.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/**
 * The contract's scopes, as a table written out here (not read from the code it checks): for every operation
 * of the running service's OpenAPI description and every scope, a key holding only that scope is refused with
 * 403 {@code insufficient-scope} exactly where the table says, and never where it admits the scope. An
 * operation the table does not know fails the test, so a new endpoint cannot ship without a decided rule.
 */
class ScopeTableIntegrationTests extends IntegrationTest {

    /** The operations that take no key: each authenticates by its signature. */
    private static final Set<String> PUBLIC = Set.of("POST /webhooks/psp", "POST /webhooks/stripe");

    private static final Map<String, Set<Scope>> TABLE = table();

    private static Map<String, Set<Scope>> table() {
        Map<String, Set<Scope>> table = new LinkedHashMap<>();
        Set<Scope> orders = Set.of(Scope.ORDERS);
        Set<Scope> ordersOrRead = Set.of(Scope.ORDERS, Scope.READ);
        Set<Scope> payments = Set.of(Scope.PAYMENTS);
        Set<Scope> operator = Set.of(Scope.OPERATOR);
        Set<Scope> operatorOrRead = Set.of(Scope.OPERATOR, Scope.READ);
        Set<Scope> keys = Set.of(Scope.KEYS);
        table.put("POST /api/orders", orders);
        table.put("GET /api/orders", ordersOrRead);
        table.put("GET /api/orders/{orderRef}", ordersOrRead);
        table.put("POST /api/orders/{orderRef}/checkout", orders);
        table.put("GET /api/orders/{orderRef}/return", ordersOrRead);
        table.put("POST /api/orders/{orderRef}/refunds", payments);
        table.put("GET /api/orders/{orderRef}/refunds", Set.of(Scope.PAYMENTS, Scope.READ));
        table.put("POST /api/orders/{orderRef}/capture", payments);
        table.put("POST /api/orders/{orderRef}/void", payments);
        table.put("GET /api/admin/actions", operatorOrRead);
        table.put("POST /api/admin/attempts/{referenceId}/abandon", operator);
        table.put("GET /api/admin/discrepancies", operatorOrRead);
        table.put("GET /api/admin/duplicate-charges", operatorOrRead);
        table.put("POST /api/admin/duplicate-charges/{pspPaymentId}/refund", operator);
        table.put("GET /api/admin/outbox", operatorOrRead);
        table.put("POST /api/admin/outbox/redrive", operator);
        table.put("POST /api/admin/outbox/{id}/discard", operator);
        table.put("POST /api/admin/outbox/{id}/redrive", operator);
        table.put("POST /api/admin/outbox/{id}/resend", operator);
        table.put("GET /api/admin/payments/{pspPaymentId}", operatorOrRead);
        table.put("GET /api/admin/refunds/{referenceId}", operatorOrRead);
        table.put("POST /api/admin/refunds/{referenceId}/abandon", operator);
        table.put("GET /api/admin/stripe-events", operatorOrRead);
        table.put("GET /api/admin/ledger.csv", operatorOrRead);
        table.put("POST /api/admin/reconciliations", operator);
        table.put("GET /api/admin/reconciliations", operatorOrRead);
        table.put("GET /api/admin/reconciliations/{id}", operatorOrRead);
        table.put("GET /api/admin/unresolved", operatorOrRead);
        table.put("GET /api/billing/purchases/{paymentIntentId}", Set.of(Scope.READ));
        table.put("GET /api/billing/subscriptions/{subscriptionId}", Set.of(Scope.READ));
        table.put("GET /api/billing/subscriptions/{subscriptionId}/grants", Set.of(Scope.READ));
        table.put("GET /api/billing/users/{userId}", Set.of(Scope.READ));
        table.put("POST /api/billing/subscriptions/{subscriptionId}/sync", operator);
        table.put("POST /api/admin/keys", keys);
        table.put("GET /api/admin/keys", keys);
        table.put("DELETE /api/admin/keys/{id}", keys);
        return table;
    }

    @Test
    @DisplayName("every operation × every scope: 403 insufficient-scope exactly where the table refuses the scope")
    void everyOperationAnswersEachScopeAsTheTableSays() {
        Map<Scope, Http> holders = new EnumMap<>(Scope.class);
        for (Scope scope : Scope.values()) {
            holders.put(scope, http().bearer(issue(scope)));
        }
        JsonNode document = http().get("/v3/api-docs").json();
        List<String> described = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        document.path("paths").properties().forEach(path -> path.getValue().properties().forEach(method -> {
            String operation = method.getKey().toUpperCase() + " " + path.getKey();
            described.add(operation);
            if (PUBLIC.contains(operation)) {
                assertThat(method.getValue().has("security")).as(operation + " documented public").isFalse();
                return;
            }
            Set<Scope> admitted = TABLE.get(operation);
            if (admitted == null) {
                wrong.add(operation + ": not in the table — decide its scopes and add it");
                return;
            }
            Set<String> documented = new TreeSet<>();
            method.getValue().path("x-scopes").forEach(s -> documented.add(s.asString()));
            Set<String> expected = new TreeSet<>(admitted.stream().map(Scope::wireName).toList());
            if (!documented.equals(expected)) {
                wrong.add(operation + ": documented x-scopes " + documented + ", the table says " + expected);
            }
            String target = path.getKey().replaceAll("\\{[^}]+}", "no-such-row");
            for (Scope scope : Scope.values()) {
                Response answer = holders.get(scope).send(method.getKey().toUpperCase(), target,
                        "post".equals(method.getKey()) ? "{}".getBytes() : null);
                boolean refused = answer.status() == 403 && "insufficient-scope".equals(slug(answer));
                if (admitted.contains(scope) && (answer.status() == 401 || answer.status() == 403)) {
                    wrong.add(operation + " with " + scope.wireName() + ": " + answer.status() + ", the table admits it");
                } else if (!admitted.contains(scope) && !refused) {
                    wrong.add(operation + " with " + scope.wireName() + ": " + answer.status() + " " + slug(answer)
                            + ", expected 403 insufficient-scope");
                } else if (refused && !answer.json().path("detail").asString()
                        .contains(admitted.iterator().next().wireName())) {
                    wrong.add(operation + ": the detail names no needed scope: " + answer.json().path("detail"));
                }
            }
        }));
        assertThat(wrong).as("operations answering against the scope table").isEmpty();
        List<String> stale = new ArrayList<>(TABLE.keySet());
        stale.removeAll(described);
        assertThat(stale).as("table rows for operations the service no longer describes").isEmpty();
    }

    private String issue(Scope scope) {
        Response issued = http().bearer("test-admin-key").post("/api/admin/keys",
                "{\"name\":\"only-" + scope.wireName() + "\",\"scopes\":[\"" + scope.wireName() + "\"]}");
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        return issued.json().path("key").asString();
    }

    private static String slug(Response answer) {
        return answer.body().contains("\"type\"") ? answer.problemSlug() : "";
    }
}
