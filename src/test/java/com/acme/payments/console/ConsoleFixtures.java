package com.acme.payments.console;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.common.web.KeyAuthenticator;
import com.acme.payments.common.web.KeyHolder;
import com.acme.payments.common.web.Scope;
import com.acme.payments.support.Checkouts;
import com.acme.payments.support.Http;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * The console's tests share one application: the test profile's keys ({@code anna:test-anna-key} holds every
 * scope), a read-only key added beside them, and an idle limit other than the container's default, so that a
 * session carrying it shows the setting was applied.
 */
@Import(ConsoleFixtures.ReadOnlyKey.class)
@TestPropertySource(properties = "payments.console.session-idle=7m")
public abstract class ConsoleFixtures extends IntegrationTest {

    protected static final String OPERATOR_KEY = "test-anna-key";
    protected static final String READ_KEY = "test-read-only-key";
    protected static final String SHOP_KEY = Shop.SHOP_KEY;

    @Autowired
    protected JdbcClient jdbc;

    ConsoleClient console() {
        return new ConsoleClient("http://localhost:" + port);
    }

    /** A paid order with one refund left UNKNOWN: its create call got a 503 and the PSP's search shows nothing. */
    protected StuckRefund stuckRefund(String amount) {
        String orderRef = Checkouts.paidOrder(new Shop(http()), psp, jdbc, "50.00");
        psp.stubFor(createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        Http.Response refund = http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", "stuck-" + UUID.randomUUID())
                .post("/api/orders/" + orderRef + "/refunds",
                        "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\",\"reason\":\"customer asked\"}");
        assertThat(refund.status()).as(refund.body()).isEqualTo(409);
        String referenceId = refund.json().path("referenceId").asString();
        assertThat(refundState(referenceId)).isEqualTo("UNKNOWN");
        return new StuckRefund(orderRef, referenceId);
    }

    protected String refundState(String referenceId) {
        return jdbc.sql("SELECT state FROM psp_refund_attempt WHERE reference_id = :r").param("r", referenceId)
                .query(String.class).single();
    }

    protected record StuckRefund(String orderRef, String referenceId) {
    }

    /** {@code test-read-only-key}: a key holding {@code read} only, beside the configured ones. */
    @TestConfiguration(proxyBeanMethods = false)
    static class ReadOnlyKey {

        @Bean
        @Primary
        KeyAuthenticator withReadOnlyKey(ObjectProvider<KeyAuthenticator> all) {
            return new KeyAuthenticator() {
                @Override
                public Optional<KeyHolder> authenticate(String presentedKey) {
                    if (READ_KEY.equals(presentedKey)) {
                        return Optional.of(new KeyHolder("auditor", Set.of(Scope.READ)));
                    }
                    return all.stream().filter(other -> other != this).findFirst()
                            .flatMap(configured -> configured.authenticate(presentedKey));
                }
            };
        }
    }
}
