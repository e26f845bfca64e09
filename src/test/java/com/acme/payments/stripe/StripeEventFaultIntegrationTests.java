package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.event;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.session;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.acme.payments.support.Http;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Signed garbage from Stripe: an event with a valid signature whose values cannot be stored is kept as faulted,
 * counted, listed for operators and answered 200 (Stripe stops redelivering it), never a 500 or a 400 that
 * Stripe would retry for three days; nothing of it is applied.
 */
@DisplayName("Signed garbage from Stripe is a faulted event: 200, kept, counted, listed, nothing applied")
class StripeEventFaultIntegrationTests extends StripeIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MeterRegistry meters;

    private String paidSession(String eventId, String userId, String subscriptionId) {
        return event(eventId, "checkout.session.completed",
                session(id("cs"), "subscription", "paid", userId, subscriptionId, null, 2900, null));
    }

    private double faults() {
        return meters.find("stripe.event.faults").tag("type", "checkout.session.completed").counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    private List<JsonNode> faulted() {
        Http.Response response = admin().get("/api/admin/stripe-events?state=faulted");
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body()).valueStream().toList();
    }

    private JsonNode faultedRow(String eventIdPrefix) {
        return faulted().stream().filter(row -> row.path("eventId").asString().startsWith(eventIdPrefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no faulted event " + eventIdPrefix + " in " + faulted()));
    }

    private long users(String userIdPrefix) {
        return jdbc.sql("SELECT count(*) FROM billing_user WHERE starts_with(user_id, :u)").param("u", userIdPrefix)
                .query(Long.class).single();
    }

    @Test
    @DisplayName("a NUL in the user id is a faulted event: 200, counted, listed with why; a redelivery changes nothing")
    void nulInUserIdIsFaulted() {
        String eventId = id("evt");
        String userId = id("user");
        String subscriptionId = id("sub");
        double before = faults();
        String body = paidSession(eventId, userId + "\\u0000x", subscriptionId);

        Http.Response first = deliver(body);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.body()).contains("\"received\":true");
        Http.Response again = deliver(body);
        assertThat(again.status()).as(again.body()).isEqualTo(200);

        JsonNode row = faultedRow(eventId);
        assertThat(row.path("eventId").asString()).isEqualTo(eventId);
        assertThat(row.path("type").asString()).isEqualTo("checkout.session.completed");
        assertThat(row.path("state").asString()).isEqualTo("faulted");
        assertThat(row.path("reason").asString()).contains("data.object.metadata.userId").contains("NUL");
        assertThat(row.path("receivedAt").asString()).isNotBlank();
        assertThat(faults() - before).as("each delivery counted").isEqualTo(2.0);
        assertThat(grantCount(subscriptionId)).isZero();
        assertThat(users(userId)).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM processed_webhook_events WHERE id = :id").param("id", eventId)
                .query(Long.class).single()).isOne();
    }

    @Test
    @DisplayName("an event id with a NUL or a lone surrogate, or longer than 255, is kept under an escaped, abbreviated id")
    void unstorableEventIdIsFaulted() {
        String base = id("evt");
        for (String eventId : List.of(base + "\\u0000nul", base + "\\ud800lone", base + "x".repeat(300))) {
            String subscriptionId = id("sub");
            String userId = id("user");
            Http.Response response = deliver(paidSession(eventId, userId, subscriptionId));
            assertThat(response.status()).as(eventId + " " + response.body()).isEqualTo(200);
            assertThat(grantCount(subscriptionId)).as(eventId).isZero();
            assertThat(users(userId)).as(eventId).isZero();
        }
        List<JsonNode> rows = faulted().stream().filter(row -> row.path("eventId").asString().startsWith(base))
                .toList();
        assertThat(rows).extracting(row -> row.path("eventId").asString())
                .hasSize(3)
                .allMatch(stored -> stored.length() <= 255 && !stored.contains("\u0000"))
                .anyMatch(stored -> stored.startsWith(base + "\\u0000nul…#"))
                .anyMatch(stored -> stored.startsWith(base + "\\ud800lone…#"));
        assertThat(rows).extracting(row -> row.path("reason").asString())
                .anyMatch(reason -> reason.equals("id is " + (base.length() + 300) + " characters, at most 255"));
    }

    @Test
    @DisplayName("a currency that is not ISO 4217 is a faulted event, and nothing is granted")
    void nonIsoCurrencyIsFaulted() {
        for (String currency : List.of("zzz", "xxx", "eu", "EURO", "€")) {
            String eventId = id("evt");
            String subscriptionId = id("sub");
            String userId = id("user");
            String body = paidSession(eventId, userId, subscriptionId).replace("\"currency\": \"eur\"",
                    "\"currency\": \"" + currency + "\"");
            Http.Response response = deliver(body);
            assertThat(response.status()).as(currency + " " + response.body()).isEqualTo(200);
            assertThat(faultedRow(eventId).path("reason").asString()).as(currency)
                    .contains("data.object.currency is not an ISO-4217 currency code");
            assertThat(grantCount(subscriptionId)).as(currency).isZero();
            assertThat(users(userId)).as(currency).isZero();
        }
    }

    @Test
    @DisplayName("a metadata id longer than 255 characters is a faulted event")
    void overlongUserIdIsFaulted() {
        String eventId = id("evt");
        String subscriptionId = id("sub");
        Http.Response response = deliver(paidSession(eventId, "u".repeat(256), subscriptionId));
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(faultedRow(eventId).path("reason").asString())
                .isEqualTo("data.object.metadata.userId is 256 characters, at most 255");
        assertThat(grantCount(subscriptionId)).isZero();
    }

    @Test
    @DisplayName("a well-formed event still applies; the listing wants the admin key and a known state")
    void wellFormedEventsApplyAndTheListingIsGuarded() {
        String subscriptionId = id("sub");
        String eventId = id("evt");
        assertThat(deliver(paidSession(eventId, id("user"), subscriptionId)).status()).isEqualTo(200);
        assertThat(grantCount(subscriptionId)).isOne();
        assertThat(faulted()).noneMatch(row -> row.path("eventId").asString().equals(eventId));
        assertThat(http().get("/api/admin/stripe-events?state=faulted").status()).isEqualTo(401);
        assertThat(http().bearer("test-shop-key").get("/api/admin/stripe-events?state=faulted").status())
                .isEqualTo(403);
        Http.Response bad = admin().get("/api/admin/stripe-events?state=bogus");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body()).contains("\"field\":\"state\"");
        assertThat(admin().get("/api/admin/stripe-events?state=faulted&limit=0").status()).isEqualTo(400);
        JsonNode completed = JSON.readTree(admin().get("/api/admin/stripe-events?state=completed").body());
        assertThat(completed.valueStream().map(row -> row.path("eventId").asString())).contains(eventId);
        assertThat(http().get("/actuator/prometheus").body()).contains("stripe_event_faults_total{");
    }
}
