package com.acme.payments.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.operator.OperatorActionStore;
import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

import tools.jackson.databind.JsonNode;

/**
 * The contract's "Access: keys with scopes, issued and revoked at run time": a key is issued with scopes, shown
 * once, stored hashed, used under its name, listed without the key, and revoked — then answered 401.
 */
class RunTimeKeysIntegrationTests extends IntegrationTest {

    private static final String KEYS = "/api/admin/keys";

    @Autowired
    KeyUsage usage;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    OperatorActionStore actions;

    @Autowired
    ApiKeyStore store;

    private Http admin() {
        return http().bearer("test-anna-key");
    }

    @Test
    @DisplayName("issue → use → list (lastUsedAt, no key) → revoke → 401, issuing and revoking audited under the actor")
    void issueUseListRevoke() {
        Response issued = admin().post(KEYS, "{\"name\":\"shop-eu\",\"scopes\":[\"orders\",\"read\"]}");
        assertThat(issued.status()).isEqualTo(201);
        assertThat(issued.header("Cache-Control")).isEqualTo("no-store");
        JsonNode body = issued.json();
        String key = body.path("key").asString();
        long id = body.path("id").asLong();
        assertThat(key).startsWith("pk_").hasSizeGreaterThanOrEqualTo(3 + 43);
        assertThat(body.path("name").asString()).isEqualTo("shop-eu");
        assertThat(body.path("scopes").toString()).isEqualTo("[\"orders\",\"read\"]");
        assertThat(body.path("createdAt").asString()).isNotBlank();

        String orderRef = Shop.newOrderRef();
        Response created = http().bearer(key).post("/api/orders", """
                {"orderRef":"%s","amount":"10.00","currency":"EUR","customer":{"referenceId":"c-1","email":"a@b.test"}}"""
                .formatted(orderRef));
        assertThat(created.status()).as("the key works at once on the instance that issued it").isEqualTo(201);
        assertThat(http().bearer(key).get("/api/orders/" + orderRef).status()).isEqualTo(200);
        Response refund = http().bearer(key).header("Idempotency-Key", "k1")
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"1.00\",\"currency\":\"EUR\"}");
        assertThat(refund.status()).isEqualTo(403);
        assertThat(refund.problemSlug()).isEqualTo("insufficient-scope");
        assertThat(refund.json().path("detail").asString()).contains("payments");

        usage.flush();
        Response listed = admin().get(KEYS);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body()).doesNotContain(key).doesNotContain(key.substring(3)).doesNotContain("\"key\"");
        JsonNode row = row(listed.json(), id);
        assertThat(row.path("lastUsedAt").isNull()).as("lastUsedAt after a use and a flush").isFalse();
        assertThat(row.path("revokedAt").isNull()).isTrue();
        assertThat(jdbc.sql("SELECT count(*) FROM api_key WHERE encode(key_hash, 'escape') LIKE :k")
                .param("k", "%" + key + "%").query(Long.class).single()).as("the key is not stored").isZero();

        Response revoked = http().bearer("test-anna-key").send("DELETE", KEYS + "/" + id, null);
        assertThat(revoked.status()).isEqualTo(200);
        assertThat(revoked.json().path("revokedAt").isNull()).isFalse();
        assertThat(revoked.json().has("key")).isFalse();
        Response refused = http().bearer(key).get("/api/orders/" + orderRef);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.problemSlug()).isEqualTo("unauthorized");
        assertThat(http().bearer("test-anna-key").send("DELETE", KEYS + "/" + id, null).json().path("revokedAt"))
                .as("a second revoke keeps the first time").isEqualTo(revoked.json().path("revokedAt"));

        assertThat(actions.forTarget("key:" + id)).anySatisfy(a -> {
            assertThat(a.actor()).isEqualTo("anna");
            assertThat(a.action()).isEqualTo("revoke-key");
        });
        assertThat(actions.latest(50)).anySatisfy(a -> {
            assertThat(a.action()).isEqualTo("issue-key");
            assertThat(a.actor()).isEqualTo("anna");
            assertThat(a.reason()).contains("shop-eu");
        });
    }

    @Test
    @DisplayName("what an issued key does is recorded under its name")
    void theKeysNameIsTheActor() {
        String key = issue("ops-bot", "operator");
        Response abandon = http().bearer(key).post("/api/admin/outbox/redrive", "{}");
        assertThat(abandon.status()).isEqualTo(200);
        assertThat(actions.forTarget("outbox:dead")).anySatisfy(a -> assertThat(a.actor()).isEqualTo("ops-bot"));
    }

    @Test
    @DisplayName("an unknown or empty scope list, a blank or control-character name → 400; an unknown id → 404")
    void refusals() {
        for (String bad : List.of("{\"name\":\"a\",\"scopes\":[\"everything\"]}", "{\"name\":\"a\",\"scopes\":[]}",
                "{\"name\":\"a\"}", "{\"name\":\"a\",\"scopes\":[\"ORDERS\"]}", "{\"name\":\" \",\"scopes\":[\"read\"]}",
                "{\"name\":\"a\\u0000b\",\"scopes\":[\"read\"]}", "{\"name\":\"a\\nb\",\"scopes\":[\"read\"]}",
                "{\"name\":\"" + "n".repeat(101) + "\",\"scopes\":[\"read\"]}",
                "{\"name\":\"a\",\"scopes\":[1]}", "{\"name\":\"a\",\"scopes\":\"read\"}",
                "{\"name\":\"a\",\"name\":\"b\",\"scopes\":[\"read\"]}")) {
            Response refused = admin().post(KEYS, bad);
            assertThat(refused.status()).as(bad).isEqualTo(400);
        }
        Response unknownScope = admin().post(KEYS, "{\"name\":\"a\",\"scopes\":[\"everything\"]}");
        assertThat(unknownScope.json().path("errors").get(0).path("field").asString()).isEqualTo("scopes");
        assertThat(admin().send("DELETE", KEYS + "/999999999", null).status()).isEqualTo(404);
        assertThat(admin().send("DELETE", KEYS + "/not-a-number", null).status()).isEqualTo(404);
        assertThat(jdbc.sql("SELECT count(*) FROM api_key WHERE name IN ('a', 'b')").query(Long.class).single())
                .isZero();
    }

    @Test
    @DisplayName("/api/admin/keys: a shop key 403 insufficient-scope naming keys, an order's token 403, none 401")
    void onlyTheKeysScope() {
        Response shop = http().bearer(Shop.SHOP_KEY).get(KEYS);
        assertThat(shop.status()).isEqualTo(403);
        assertThat(shop.problemSlug()).isEqualTo("insufficient-scope");
        assertThat(shop.json().path("detail").asString()).contains("keys");
        String reader = issue("reader", "read");
        assertThat(http().bearer(reader).get(KEYS).status()).as("read does not list keys").isEqualTo(403);
        String operator = issue("operator", "operator", "payments", "orders", "read");
        assertThat(http().bearer(operator).post(KEYS, "{\"name\":\"x\",\"scopes\":[\"keys\"]}").status())
                .isEqualTo(403);
        Shop.CreatedOrder order = new Shop(http()).createOrder("10.00", "EUR");
        Response token = http().bearer(order.clientToken()).get(KEYS);
        assertThat(token.status()).isEqualTo(403);
        assertThat(token.problemSlug()).isEqualTo("forbidden");
        assertThat(http().bearer("pk_no-such-key").get(KEYS).status()).isEqualTo(401);
        assertThat(http().get(KEYS).status()).isEqualTo(401);
        String keeper = issue("keeper", "keys");
        assertThat(http().bearer(keeper).get(KEYS).status()).isEqualTo(200);
    }

    @Test
    @DisplayName("lastUsedAt only moves forward, whichever instance flushes last")
    void lastUseOnlyMovesForward() {
        String key = issue("late-flusher", "read");
        long id = store.all().stream().filter(k -> k.name().equals("late-flusher")).findFirst().orElseThrow().id();
        java.time.Instant later = java.time.Instant.parse("2026-01-02T00:00:00Z");
        assertThat(store.touch(id, later)).isTrue();
        assertThat(store.touch(id, later.minusSeconds(60))).as("an older use from a slower instance").isFalse();
        assertThat(store.find(id).orElseThrow().lastUsedAt()).isEqualTo(later);
        assertThat(key).startsWith("pk_");
    }

    private String issue(String name, String... scopes) {
        String list = String.join("\",\"", scopes);
        Response issued = admin().post(KEYS, "{\"name\":\"" + name + "\",\"scopes\":[\"" + list + "\"]}");
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        return issued.json().path("key").asString();
    }

    private static JsonNode row(JsonNode list, long id) {
        for (JsonNode row : list) {
            if (row.path("id").asLong() == id) {
                return row;
            }
        }
        throw new AssertionError("key " + id + " not listed in " + list);
    }
}
