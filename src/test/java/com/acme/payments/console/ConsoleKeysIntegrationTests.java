package com.acme.payments.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;

/**
 * The console's keys page, for a session whose key holds {@code keys}: a key issued there is shown once, works
 * at the API, and once revoked there is refused by it; a session without {@code keys} is refused the page and
 * its posts, and sees no link to it.
 */
class ConsoleKeysIntegrationTests extends ConsoleFixtures {

    private static final Pattern NEW_KEY = Pattern.compile("id=\"new-key\">(pk_[A-Za-z0-9_-]+)<");

    @Test
    @DisplayName("issue a key: shown once with 'store it now', no-store; the API takes it; revoked, the API answers 401")
    void issueSeeOnceRevoke() {
        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        HttpResponse<String> list = anna.get("/console/keys");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("id=\"nav-keys\"").contains("id=\"issue-key\"");

        String name = "warehouse-" + System.nanoTime();
        HttpResponse<String> issued = anna.post("/console/keys", List.of(Map.entry("name", name),
                Map.entry("scopes", "operator"), Map.entry("scopes", "read")));
        assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
        assertThat(issued.headers().firstValue("Cache-Control").orElse("")).contains("no-store");
        assertThat(issued.body()).contains("never shown again");
        Matcher shown = NEW_KEY.matcher(issued.body());
        assertThat(shown.find()).as(issued.body()).isTrue();
        String key = shown.group(1);

        Http.Response withIt = http().bearer(key).get("/api/admin/reconciliations");
        assertThat(withIt.status()).as(withIt.body()).isEqualTo(200);
        HttpResponse<String> listed = anna.get("/console/keys");
        assertThat(listed.body()).contains(name).doesNotContain(key);
        long id = jdbc.sql("SELECT id FROM api_key WHERE name = :n").param("n", name).query(Long.class).single();

        HttpResponse<String> revoked = anna.post("/console/keys/" + id + "/revoke", Map.of());
        assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(302);
        assertThat(anna.get("/console/keys").body()).contains(name + " revoked");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> http().bearer(key).get("/api/admin/reconciliations").status() == 401);
        assertThat(jdbc.sql("""
                SELECT actor || ' ' || action || ' ' || target || ' ' || coalesce(reason, '-') || ' ' || outcome
                  FROM operator_action
                 WHERE (target = 'keys' AND reason LIKE '%' || :n || '%') OR target = :t ORDER BY id""")
                .param("t", "key:" + id).param("n", name).query(String.class).list())
                .containsExactly("anna issue-key keys name=" + name + " scopes=operator,read done",
                        "anna revoke-key key:" + id + " - done");
    }

    @Test
    @DisplayName("a session whose key lacks 'keys' sees no Keys link, and GET /console/keys and both posts are 403")
    void sessionWithoutKeysScopeIsRefused() {
        String name = "ops-" + System.nanoTime();
        Http.Response issued = http().bearer(OPERATOR_KEY).post("/api/admin/keys",
                "{\"name\":\"" + name + "\",\"scopes\":[\"operator\",\"read\"]}");
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        String operatorOnly = issued.json().path("key").asString();
        long id = issued.json().path("id").asLong();

        for (String key : new String[] { operatorOnly, READ_KEY }) {
            ConsoleClient session = console();
            assertThat(session.signIn(key).statusCode()).isEqualTo(302);
            HttpResponse<String> unresolved = session.get("/console/unresolved");
            assertThat(unresolved.statusCode()).isEqualTo(200);
            assertThat(unresolved.body()).doesNotContain("/console/keys");
            assertThat(session.get("/console/keys").statusCode()).isEqualTo(403);
            session.get("/console/unresolved");
            assertThat(session.post("/console/keys", List.of(Map.entry("name", "mine-" + System.nanoTime()),
                    Map.entry("scopes", "keys"))).statusCode()).isEqualTo(403);
            session.get("/console/unresolved");
            assertThat(session.post("/console/keys/" + id + "/revoke", Map.of()).statusCode()).isEqualTo(403);
        }
        assertThat(jdbc.sql("SELECT count(*) FROM api_key WHERE name LIKE 'mine-%'").query(Long.class).single())
                .isZero();
        assertThat(jdbc.sql("SELECT revoked_at IS NULL FROM api_key WHERE id = :id").param("id", id)
                .query(Boolean.class).single()).isTrue();
    }
}
