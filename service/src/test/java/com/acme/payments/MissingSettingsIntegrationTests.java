package com.acme.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

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
        String[] args = settings.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        assertThatThrownBy(() -> new SpringApplicationBuilder(PaymentsApplication.class).run(args))
                .hasRootCauseInstanceOf(BindValidationException.class);
        assertThat(output.getAll()).contains("Description:\n\n" + variable + " is not set\n")
                .contains("Set the environment variable " + variable + " and start again.")
                .doesNotContain("super-secret");
    }
}
