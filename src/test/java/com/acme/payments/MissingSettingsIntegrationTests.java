package com.acme.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.psp.PaymentProvider;
import com.acme.payments.psp.stripe.StripeProvider;
import com.acme.payments.support.TestDatabase;

/**
 * The service refuses to start without its secrets, its two public URLs and its database, with one line naming the
 * variable and no value (outside the development launcher, which supplies them, nothing falls back to
 * localhost). {@code PackagedJarIT} checks the same from the packaged jar.
 */
@ExtendWith(OutputCaptureExtension.class)
class MissingSettingsIntegrationTests {

    @ParameterizedTest(name = "without {0}")
    @CsvSource({ "PSP_API_URL, payments.psp.api-url", "PSP_API_KEY, payments.psp.api-key",
            "PSP_SIGNING_KEY, payments.psp.signing-key", "SHOP_API_KEYS, payments.auth.shop-keys",
            "ADMIN_API_KEYS, payments.auth.admin-keys", "APP_PUBLIC_URL, payments.checkout.public-url",
            "SHOP_RETURN_URL, payments.checkout.return-url", "SPRING_DATASOURCE_URL, spring.datasource.url" })
    void refusesToStartNamingTheVariable(String variable, String property, CapturedOutput output) {
        Map<String, Object> settings = gatewaySettings();
        settings.remove(property); // absent, as an unset variable is: application.yml decides what that means
        assertRefusedNaming(variable, settings, output);
    }

    /** With Stripe as the PSP its two secrets are required (and the Gateway's three are not: below). */
    @ParameterizedTest(name = "PSP_PROVIDER=stripe without {0}")
    @CsvSource({ "STRIPE_API_KEY, stripe.api-key", "STRIPE_WEBHOOK_SECRET, stripe.webhook-secret" })
    void stripeAsThePspRefusesToStartWithoutItsSecrets(String variable, String property, CapturedOutput output) {
        Map<String, Object> settings = stripeSettings();
        settings.remove(property);
        assertRefusedNaming(variable, settings, output);
    }

    /** Billing alone keeps the Stripe settings optional: the Gateway as the PSP needs none of them. */
    @Test
    void theGatewayAsThePspStartsWithoutAnyStripeSetting(CapturedOutput output) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(PaymentsApplication.class)
                .run(args(gatewaySettings()))) {
            assertThat(context.getBean(PaymentProvider.class)).isNotInstanceOf(StripeProvider.class);
        }
        assertThat(output.getAll()).doesNotContain("super-secret");
    }

    @Test
    void stripeAsThePspStartsWithoutTheGatewaysSettings(CapturedOutput output) {
        String[] args = args(stripeSettings());
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(PaymentsApplication.class).run(args)) {
            assertThat(context.getBean(PaymentProvider.class)).isInstanceOf(StripeProvider.class);
        }
        assertThat(output.getAll()).doesNotContain("super-secret");
    }

    /** The contract's bounds of the session lifetime hold for the whole start, not only for the record. */
    @ParameterizedTest(name = "PSP_PROVIDER=stripe with session-lifetime={0}")
    @ValueSource(strings = { "59m", "25h" })
    void stripeAsThePspRefusesASessionLifetimeOutsideItsBounds(String lifetime, CapturedOutput output) {
        Map<String, Object> settings = stripeSettings();
        settings.put("payments.stripe.session-lifetime", lifetime);
        assertThatThrownBy(() -> new SpringApplicationBuilder(PaymentsApplication.class).run(args(settings)))
                .hasRootCauseInstanceOf(BindValidationException.class);
        assertThat(output.getAll()).contains("payments.stripe.session-lifetime").doesNotContain("super-secret");
    }

    /** A shop events secret that is not whsec_<base64> (one of a rolling pair included) stops the start, naming it. */
    @ParameterizedTest(name = "SHOP_EVENTS_SECRET={0}")
    @ValueSource(strings = { "super-secret", "whsec_super-secret!", "whsec_c3VwZXItc2VjcmV0,super-secret", "whsec_" })
    void aShopEventsSecretOfTheWrongFormRefusesTheStartNamingIt(String secret, CapturedOutput output) {
        Map<String, Object> settings = gatewaySettings();
        settings.put("payments.outbox.sinks.shop-events-secret", secret);
        assertThatThrownBy(() -> new SpringApplicationBuilder(PaymentsApplication.class).run(args(settings)))
                .hasRootCauseInstanceOf(BindValidationException.class);
        assertThat(output.getAll()).containsPattern("Description:(\n\n|\\\\n\\\\n)SHOP_EVENTS_SECRET is invalid: "
                + "each comma-separated secret must be whsec_<base64>(\n|\\\\n)")
                .doesNotContain("super-secret");
    }

    /** Every required setting present with Stripe as the PSP, and none of the Gateway's three. */
    private static Map<String, Object> stripeSettings() {
        Map<String, Object> settings = gatewaySettings();
        settings.remove("payments.psp.api-url");
        settings.remove("payments.psp.api-key");
        settings.remove("payments.psp.signing-key");
        settings.put("payments.psp.provider", "stripe");
        settings.put("stripe.api-key", "sk_test_super-secret");
        settings.put("stripe.webhook-secret", "whsec_super-secret");
        settings.put("stripe.api-base", "http://127.0.0.1:9"); // nothing here may reach Stripe
        return settings;
    }

    private static Map<String, Object> gatewaySettings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("spring.datasource.url", TestDatabase.url());
        settings.put("spring.datasource.username", TestDatabase.user());
        settings.put("spring.datasource.password", TestDatabase.password());
        settings.put("server.port", "0");
        settings.put("logging.structured.format.console", "");
        settings.put("payments.psp.api-url", "http://127.0.0.1:9");
        settings.put("payments.psp.api-key", "super-secret-psp-key");
        settings.put("payments.psp.signing-key", "super-secret-signing-key");
        settings.put("payments.auth.shop-keys", "super-secret-shop-key");
        settings.put("payments.auth.admin-keys", "super-secret-admin-key");
        settings.put("payments.checkout.public-url", "https://payments.example.com");
        settings.put("payments.checkout.return-url", "https://shop.example.com/thank-you");
        return settings;
    }

    private static void assertRefusedNaming(String variable, Map<String, Object> settings, CapturedOutput output) {
        String[] args = args(settings);
        assertThatThrownBy(() -> new SpringApplicationBuilder(PaymentsApplication.class).run(args))
                .hasRootCauseInstanceOf(BindValidationException.class);
        // one line naming the variable: the development pattern escapes the failure report's line breaks
        assertThat(output.getAll()).containsPattern("Description:(\n\n|\\\\n\\\\n)" + variable + " is not set(\n|\\\\n)")
                .contains("Set the environment variable " + variable + " and start again.")
                .doesNotContain("super-secret");
    }

    private static String[] args(Map<String, Object> settings) {
        return settings.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }
}
