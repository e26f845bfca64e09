package com.acme.payments;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.support.TestDatabase;
import com.acme.pspsim.PspSimulatorApplication;

/**
 * The development launcher behind {@code ./mvnw spring-boot:test-run}: the service on port 8080 with a
 * development database (the machine's PostgreSQL via TEST_DATABASE_URL, Testcontainers when Docker
 * answers, else an embedded PostgreSQL), the PSP simulator beside it on 8090, and the outbox sinks
 * pointed at the simulator's recording sink. It supplies development values for every secret — and
 * says so — so the command needs no setup. Never a production entry point.
 */
public final class TestPaymentsApplication {

    private static final Logger log = LoggerFactory.getLogger(TestPaymentsApplication.class);

    static final String SHOP_KEY = "dev-shop-key";
    static final String ADMIN_KEY = "dev-admin-key";
    static final String PSP_KEY = "dev-psp-key";
    static final String SIGNING_KEY = "dev-signing-key";
    static final String STRIPE_SECRET = "whsec_dev_secret";
    static final String STRIPE_API_KEY = "sk_test_dev_key";

    private TestPaymentsApplication() {
    }

    public static void main(String[] args) {
        // 8080 and 8090 when free, else any free port: the webhook URL must name the port really used
        int port = System.getenv("SERVER_PORT") != null ? Integer.parseInt(System.getenv("SERVER_PORT")) : freeOr(8080);
        int simPort = freeOr(8090);
        String simUrl = "http://localhost:" + simPort;
        // PSP_PROVIDER=stripe: the same demo against the simulator's Stripe surface (docs/testing.md)
        boolean stripe = "stripe".equalsIgnoreCase(System.getenv("PSP_PROVIDER"));
        ConfigurableApplicationContext simulator = PspSimulatorApplication.start(simPort, Map.of(
                "pspsim.api-key", PSP_KEY,
                "pspsim.signing-key", SIGNING_KEY,
                "pspsim.signature-encoding", "hex",
                "pspsim.public-url", simUrl,
                "pspsim.stripe.api-key", STRIPE_API_KEY,
                "pspsim.stripe.webhook-secret", STRIPE_SECRET,
                "pspsim.stripe.webhook-url", stripe ? "http://localhost:" + port + "/webhooks/stripe" : ""));

        String database = System.getenv("SPRING_DATASOURCE_URL");
        Map<String, String> dev = new LinkedHashMap<>();
        if (database == null || database.isBlank()) {
            dev.put("spring.datasource.url", TestDatabase.developmentUrl("payments_dev"));
            dev.put("spring.datasource.username", TestDatabase.user());
            dev.put("spring.datasource.password", TestDatabase.password());
        }
        if (stripe) {
            dev.put("payments.psp.provider", "stripe");
            dev.put("stripe.api-key", STRIPE_API_KEY);
            dev.put("stripe.api-base", simUrl);
        } else {
            dev.put("payments.psp.api-url", simUrl);
            dev.put("payments.psp.api-key", PSP_KEY);
            dev.put("payments.psp.signing-key", SIGNING_KEY);
        }
        dev.put("payments.auth.shop-keys", SHOP_KEY);
        dev.put("payments.auth.admin-keys", ADMIN_KEY);
        dev.put("server.port", String.valueOf(port));
        dev.put("payments.checkout.public-url", "http://localhost:" + port);
        dev.put("payments.checkout.return-url", simUrl + "/sink/thank-you");
        dev.put("payments.checkout.return-url-prefixes", simUrl + "/sink/");
        dev.put("payments.sweep.interval", "30s");
        dev.put("payments.replay.interval", "30s");
        dev.put("payments.replay.min-age", "1m");
        dev.put("logging.structured.format.console", "");
        dev.put("springdoc.swagger-ui.enabled", "true"); // Swagger UI at /swagger-ui.html, development only
        DevSettings.extra(dev, simUrl, STRIPE_SECRET);
        dev.forEach((key, value) -> {
            if (System.getProperty(key) == null) {
                System.setProperty(key, value);
            }
        });

        ConfigurableApplicationContext service = SpringApplication.from(PaymentsApplication::main).run(args)
                .getApplicationContext();
        log.warn("""

                ==== DEVELOPMENT MODE: development secrets, not for production ====
                  service     http://localhost:{}   shop key: {}   admin key: {}
                  simulator   {}   (hosted pay page, faults: docs/testing.md)
                  API         /v3/api-docs, Swagger UI /swagger-ui.html
                  provider {}   PSP key {} / webhook signing key {}
                  Stripe key {} / Stripe webhook secret {}
                ===================================================================""",
                service.getEnvironment().getProperty("local.server.port"), SHOP_KEY, ADMIN_KEY, simUrl,
                stripe ? "stripe" : "gateway", PSP_KEY, SIGNING_KEY, STRIPE_API_KEY, STRIPE_SECRET);
        Runtime.getRuntime().addShutdownHook(new Thread(simulator::close, "stop-simulator"));
    }

    private static int freeOr(int preferred) {
        try (ServerSocket socket = new ServerSocket(preferred)) {
            return preferred;
        } catch (IOException taken) {
            try (ServerSocket socket = new ServerSocket(0)) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
