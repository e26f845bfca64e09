package com.acme.payments.billing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http;
import com.acme.payments.support.Shop;

/**
 * "Configuration a request needs but the deployment lacks": billing's sync without {@code STRIPE_API_KEY} is a
 * 503 {@code not-configured} naming the setting, after the request's own answers (401/403, 404), and
 * records nothing.
 */
@TestPropertySource(properties = "stripe.api-key=")
class SyncNotConfiguredIntegrationTests extends StripeIntegrationTest {

    @Test
    @DisplayName("sync without STRIPE_API_KEY: 401, 403 and 404 first, then 503 not-configured naming the setting")
    void syncWithoutApiKeyIs503NotConfiguredAfterValidation() {
        String sync = "/api/billing/subscriptions/sub_unconfigured/sync";
        int actions = actions();

        assertThat(http().post(sync, (String) null).status()).isEqualTo(401);
        assertThat(http().bearer(Shop.SHOP_KEY).post(sync, (String) null).status()).isEqualTo(403);
        Http.Response unknown = http().bearer(Shop.ADMIN_KEY).post("/api/billing/subscriptions/a.b/sync", (String) null);
        assertThat(unknown.status()).isEqualTo(404);

        Http.Response answer = http().bearer(Shop.ADMIN_KEY).post(sync, (String) null);
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertThat(answer.problemSlug()).isEqualTo("not-configured");
        assertThat(answer.json().path("setting").asString()).isEqualTo("STRIPE_API_KEY");
        assertThat(answer.json().path("detail").asString()).contains("STRIPE_API_KEY");
        assertThat(actions()).as("operator actions recorded").isEqualTo(actions);
        assertThat(psp.getAllServeEvents()).as("calls to the Stripe API").isEmpty();
    }

    private int actions() {
        return jdbc.sql("SELECT count(*) FROM operator_action").query(Integer.class).single();
    }
}
