package com.acme.payments.billing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http;

class BillingReadApiIntegrationTests extends StripeIntegrationTest {

    private static final String[] PATHS = { "/api/billing/subscriptions/sub_nope",
            "/api/billing/subscriptions/sub_nope/grants", "/api/billing/users/user_nope",
            "/api/billing/purchases/pi_nope" };

    @Test
    void unknownIdsAre404() {
        for (String path : PATHS) {
            Http.Response response = admin().get(path);
            assertThat(response.status()).as(path).isEqualTo(404);
            assertThat(response.problemSlug()).isEqualTo("not-found");
        }
    }

    @Test
    void onlyTheAdminKeyReads() {
        for (String path : PATHS) {
            assertThat(http().get(path).status()).as(path).isEqualTo(401);
            assertThat(http().bearer("wrong").get(path).status()).as(path).isEqualTo(401);
            assertThat(http().bearer("test-shop-key").get(path).status()).as(path).isEqualTo(403);
        }
    }
}
