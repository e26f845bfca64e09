package com.acme.payments.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import com.acme.payments.support.Http;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/admin/outbox/{id}/resend}: a delivered effect goes out once more through the relay's
 * normal path, with its original {@code Idempotency-Key} and body and a signature made at the new send;
 * anything but a delivered effect is 409 {@code outbox-row-not-sent}.
 */
class OutboxResendIntegrationTests extends OutboxIntegrationTest {

    @Autowired
    private ApplicationContext context;

    private OutboxRelay later;

    @AfterEach
    void stopLaterRelay() {
        if (later != null) {
            later.stop();
        }
    }

    @Test
    @DisplayName("a resent effect reaches the sink again: same key, same body, a signature of the new send")
    void aResentEffectReachesTheSinkAgainWithTheSameKeyAndBody() throws Exception {
        String key = prefix + "1:renewal_notice";
        enqueue(notice(prefix + "1", "sub_" + prefix));
        relay.runUntilIdle(Duration.ofSeconds(10));
        long id = idOf(key);
        assertThat(row(id)).containsEntry("state", "delivered").containsEntry("settled_as", "sent");

        Http.Response resent = admin().post("/api/admin/outbox/" + id + "/resend", "");
        assertThat(resent.status()).isEqualTo(202);
        assertThat(resent.json().path("state").asString()).isEqualTo("pending");
        assertThat(resent.json().path("resentAt").isNull()).isFalse();
        assertThat(resent.json().path("attempts").asInt()).isZero();

        // the resend goes out an hour later by the relay's clock: its signature is made then, not reused
        Duration hourLater = Duration.ofHours(1);
        later = OwnRelay.of(context, Clock.offset(Clock.systemUTC(), hourLater), Map.of());
        later.runUntilIdle(Duration.ofSeconds(10));

        List<LoggedRequest> requests = sinkRequests();
        assertThat(requests).hasSize(2);
        assertThat(requests).extracting(r -> r.getHeader(SinkClient.IDEMPOTENCY_KEY)).containsOnly(key);
        assertThat(requests.get(1).getBodyAsString()).isEqualTo(requests.get(0).getBodyAsString());
        long firstT = signedAt(requests.get(0));
        long secondT = signedAt(requests.get(1));
        assertThat(secondT - firstT).isGreaterThanOrEqualTo(hourLater.toSeconds());
        assertThat(ShopSideSignatureCheck.verify(requests.get(1).getHeader(SinkSignature.HEADER),
                requests.get(1).getBody(), NOTIFY_SECRET, secondT, 300)).isTrue();
        assertThat(row(id)).containsEntry("state", "delivered").containsEntry("settled_as", "sent")
                .containsEntry("attempts", 0);
        assertThat(statesOfMyRows()).isEqualTo(Map.of("delivered", 1L));

        JsonNode audit = admin().get("/api/admin/actions?target=outbox:" + id).json();
        assertThat(audit.size()).isEqualTo(1);
        assertThat(audit.get(0).path("action").asString()).isEqualTo("resend");
        assertThat(audit.get(0).path("actor").asString()).isEqualTo("anna");
    }

    @Test
    void resendAnswers401403404And409UnlessTheEffectWasSent() {
        enqueue(notice(prefix + "1", "sub_" + prefix));
        long id = idOf(prefix + "1:renewal_notice");
        String path = "/api/admin/outbox/" + id + "/resend";

        assertThat(http().post(path, "").status()).isEqualTo(401);
        assertThat(http().bearer("test-shop-key").post(path, "").status()).isEqualTo(403);
        Http.Response unknown = admin().post("/api/admin/outbox/999999999999/resend", "");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.problemSlug()).isEqualTo("not-found");
        assertThat(admin().post("/api/admin/outbox/abc/resend", "").status()).isEqualTo(404);

        Http.Response pending = admin().post(path, "");
        assertThat(pending.status()).isEqualTo(409);
        assertThat(pending.problemSlug()).isEqualTo("outbox-row-not-sent");
        assertThat(row(id)).containsEntry("state", "pending").containsEntry("resent_at", null);

        jdbc.sql("UPDATE outbox SET state = 'dead', attempts = 10, dead_at = now() WHERE id = :id")
                .param("id", id).update();
        assertThat(admin().post(path, "").problemSlug()).isEqualTo("outbox-row-not-sent");
        assertThat(admin().post("/api/admin/outbox/" + id + "/redrive", "").status()).isEqualTo(200);
        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(row(id)).containsEntry("state", "delivered");

        assertThat(admin().post(path, "").status()).isEqualTo(202);
        assertThat(admin().post(path, "").problemSlug()).as("pending again: not sent yet")
                .isEqualTo("outbox-row-not-sent");
        relay.runUntilIdle(Duration.ofSeconds(10));
        assertThat(sentKeys()).hasSize(2);
    }

    @Test
    @DisplayName("a row settled as its twin's duplicate never went out itself: 409")
    void aDuplicateRowIsNotResent() {
        String key = prefix + "1:renewal_notice";
        enqueue(notice(prefix + "1", "sub_" + prefix));
        relay.runUntilIdle(Duration.ofSeconds(10));
        enqueue(notice(prefix + "1", "sub_" + prefix)); // the same effect committed again
        relay.runUntilIdle(Duration.ofSeconds(10));
        long twin = jdbc.sql("SELECT id FROM outbox WHERE idempotency_key = :key AND settled_as = 'duplicate'")
                .param("key", key).query(Long.class).single();

        assertThat(admin().post("/api/admin/outbox/" + twin + "/resend", "").problemSlug())
                .isEqualTo("outbox-row-not-sent");
        assertThat(sentKeys()).containsExactly(key);
    }

    private static long signedAt(LoggedRequest request) {
        String signature = request.getHeader(SinkSignature.HEADER);
        return Long.parseLong(signature.substring(2, signature.indexOf(',')));
    }

    private Http admin() {
        return http().bearer("test-anna-key");
    }
}
