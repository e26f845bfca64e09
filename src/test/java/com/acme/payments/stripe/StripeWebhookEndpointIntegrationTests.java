package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.PaymentsApplication;
import com.acme.payments.support.Http;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.TestDatabase;

import io.micrometer.core.instrument.MeterRegistry;

/** The endpoint's answers to Stripe, other than the business outcomes. */
class StripeWebhookEndpointIntegrationTests extends StripeIntegrationTest {

    @Autowired
    MeterRegistry meters;

    private final String body = renewal(id("evt"), id("sub"), id("user"), 1, null);

    @Test
    void missingWrongOrStaleSignaturesAre400WithoutDetail() {
        long now = System.currentTimeMillis() / 1000;
        Http.Response missing = http().post("/webhooks/stripe", body);
        Http.Response wrong = http().header("Stripe-Signature", StripeFixtures.signature(body, now, "whsec_other"))
                .post("/webhooks/stripe", body);
        Http.Response stale = http().header("Stripe-Signature",
                StripeFixtures.signature(body, now - 301, StripeFixtures.SECRET)).post("/webhooks/stripe", body);
        Http.Response garbage = http().header("Stripe-Signature", "nonsense").post("/webhooks/stripe", body);

        for (Http.Response r : new Http.Response[] { missing, wrong, stale, garbage }) {
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.header("Content-Type")).startsWith("application/problem+json");
            assertThat(r.problemSlug()).isEqualTo("stripe-signature-invalid");
            assertThat(r.json().path("title").asString()).isNotBlank();
            assertThat(r.json().path("status").asInt()).isEqualTo(400);
            assertThat(r.json().has("detail")).isFalse();
        }
        assertThat(jdbc.sql("SELECT count(*) FROM processed_webhook_events WHERE id LIKE 'evt_%' AND event_type IS NULL")
                .query(Long.class).single()).isZero();
    }

    @Test
    void aSignedBodyThatIsNotAnEventIs400() {
        Http.Response notJson = deliver("{not json");
        Http.Response noId = deliver("{\"type\":\"invoice.paid\",\"data\":{\"object\":{}}}");

        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.json().has("detail")).isFalse();
        assertThat(noId.status()).isEqualTo(400);
    }

    @Test
    void unhandledEventTypesAre200AndClaimNothing() {
        String eventId = id("evt");
        Http.Response response = deliver(StripeFixtures.event(eventId, "customer.created",
                "{\"id\":\"cus_1\",\"object\":\"customer\"}"));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("received").asBoolean()).isTrue();
        assertThat(eventState(eventId)).isNull();
    }

    @Test
    void outcomesAreCountedByTypeAndOutcome() {
        double before = count("other", "unhandled");
        deliver(StripeFixtures.event(id("evt"), "customer.created", "{\"id\":\"cus_1\"}"));
        assertThat(count("other", "unhandled") - before).isEqualTo(1.0);
        assertThat(http().get("/actuator/prometheus").body()).contains("stripe_webhook_events_total",
                "stripe_claim_takeovers_total", "stripe_transaction_retries_total", "billing_grants_total");
    }

    @Test
    void withoutAWebhookSecretTheServiceStartsAndTheEndpointAnswers500() {
        try (ConfigurableApplicationContext unconfigured = new SpringApplicationBuilder(PaymentsApplication.class)
                .profiles("test").run(
                        "--spring.datasource.url=" + TestDatabase.url(),
                        "--spring.datasource.username=" + TestDatabase.user(),
                        "--spring.datasource.password=" + TestDatabase.password(),
                        "--payments.psp.api-url=" + PspStub.baseUrl(),
                        "--stripe.webhook-secret=",
                        "--server.port=0")) {
            Http other = new Http("http://localhost:" + unconfigured.getEnvironment().getProperty("local.server.port"));

            Http.Response response = deliver(other, body);

            assertThat(response.status()).isEqualTo(500);
            assertThat(response.problemSlug()).isEqualTo("stripe-webhook-not-configured");
            assertThat(other.get("/actuator/health").status()).isEqualTo(200); // the rest of the service runs
        }
    }

    @Test
    void anUnreachableIdempotencyStoreAnswers503NeverProbablyNew() {
        try (ConfigurableApplicationContext noDatabase = new SpringApplicationBuilder(PaymentsApplication.class)
                .profiles("test").run(
                        "--spring.datasource.url=jdbc:postgresql://127.0.0.1:9/unreachable",
                        "--spring.datasource.hikari.connection-timeout=500",
                        "--spring.flyway.enabled=false",
                        "--payments.psp.api-url=" + PspStub.baseUrl(),
                        "--server.port=0")) {
            Http other = new Http("http://localhost:" + noDatabase.getEnvironment().getProperty("local.server.port"));

            Http.Response response = deliver(other, body);

            assertThat(response.status()).isEqualTo(503);
            assertThat(response.header("Retry-After")).isNotNull();
            assertThat(response.body()).doesNotContain("received");
        }
    }

    private double count(String type, String outcome) {
        var counter = meters.find("stripe.webhook.events").tag("type", type).tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }
}
