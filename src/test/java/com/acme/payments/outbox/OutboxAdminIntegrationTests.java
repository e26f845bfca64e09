package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;

/** {@code GET /api/admin/outbox} and {@code POST /api/admin/outbox/{id}/redrive}: scope operator (a shop key has orders only). */
class OutboxAdminIntegrationTests extends OutboxIntegrationTest {

    @Test
    void listingNeedsTheAdminKey() {
        assertThat(http().get("/api/admin/outbox?state=dead").status()).isEqualTo(401);
        assertThat(http().bearer("not-a-key").get("/api/admin/outbox?state=dead").status()).isEqualTo(401);
        Http.Response shop = http().bearer("test-shop-key").get("/api/admin/outbox?state=dead");
        assertThat(shop.status()).isEqualTo(403);
        assertThat(shop.problemSlug()).isEqualTo("insufficient-scope");
    }

    @Test
    void listingShowsRowsOfTheAskedStateWithoutTheirPayload() {
        enqueue(notice(prefix + "1", "sub_" + prefix));
        long id = idOf(prefix + "1:renewal_notice");
        jdbc.sql("UPDATE outbox SET state = 'dead', attempts = 10, last_error = 'HTTP 500' WHERE id = :id")
                .param("id", id).update();

        Http.Response dead = admin().get("/api/admin/outbox?state=dead&afterId=" + (id - 1) + "&limit=1");
        assertThat(dead.status()).isEqualTo(200);
        assertThat(dead.json().size()).isEqualTo(1);
        assertThat(dead.json().get(0).path("id").asLong()).isEqualTo(id);
        assertThat(dead.json().get(0).path("idempotencyKey").asString()).isEqualTo(prefix + "1:renewal_notice");
        assertThat(dead.json().get(0).path("state").asString()).isEqualTo("dead");
        assertThat(dead.json().get(0).path("lastError").asString()).isEqualTo("HTTP 500");
        assertThat(dead.json().get(0).has("payload")).isFalse();

        Http.Response pending = admin().get("/api/admin/outbox?state=pending&afterId=" + (id - 1) + "&limit=500");
        assertThat(pending.status()).isEqualTo(200);
        assertThat(pending.body()).doesNotContain(prefix);

        Http.Response wrongState = admin().get("/api/admin/outbox?state=lost");
        assertThat(wrongState.status()).isEqualTo(400);
        assertThat(wrongState.problemSlug()).isEqualTo("validation-failed");
        assertThat(admin().get("/api/admin/outbox?limit=0").status()).isEqualTo(400);
    }

    @Test
    void redriveAnswers401403404409And200() {
        enqueue(notice(prefix + "1", "sub_" + prefix));
        long id = idOf(prefix + "1:renewal_notice");
        String path = "/api/admin/outbox/" + id + "/redrive";

        assertThat(http().post(path, "").status()).isEqualTo(401);
        assertThat(http().bearer("test-shop-key").post(path, "").status()).isEqualTo(403);
        Http.Response unknown = admin().post("/api/admin/outbox/999999999999/redrive", "");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.problemSlug()).isEqualTo("not-found");
        assertThat(admin().post("/api/admin/outbox/abc/redrive", "").status()).isEqualTo(404);

        Http.Response notDead = admin().post(path, "");
        assertThat(notDead.status()).isEqualTo(409);
        assertThat(notDead.problemSlug()).isEqualTo("outbox-row-not-dead");

        jdbc.sql("UPDATE outbox SET state = 'dead', attempts = 10 WHERE id = :id").param("id", id).update();
        Http.Response redriven = admin().post(path, "");
        assertThat(redriven.status()).isEqualTo(200);
        assertThat(redriven.json().path("state").asString()).isEqualTo("pending");
        assertThat(redriven.json().path("attempts").asInt()).isZero();
        assertThat(redriven.json().path("redrivenAt").isNull()).isFalse();
        assertThat(admin().post(path, "").status()).isEqualTo(409); // pending now: not dead any more
    }

    private Http admin() {
        return http().bearer("test-admin-key");
    }
}
