package com.acme.payments.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.acme.payments.support.Http;
import com.acme.payments.support.OpsQueries;
import com.acme.payments.support.TestDatabase;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The artifact we ship, started from the outside (issue 11 item 1): {@code java -jar target/payments-*.jar}
 * with a production-like environment — no profile, no development secrets, every variable of the contract,
 * the actuator on its own management port — against this run's fresh test database, and the PSP simulator
 * started from its own jar the way its image starts it. The demo flow runs over HTTP, the dashboards' and
 * alert rules' metric names (read with {@link OpsQueries}) are held against a real scrape, and SIGTERM must end the service cleanly.
 * Runs in {@code ./mvnw verify} after {@code package} (failsafe). Every wait is an upper bound.
 */
class PackagedJarIT {

    private static final Duration START = Duration.ofMinutes(3);
    private static final Duration FLOW = Duration.ofSeconds(90);
    private static final Path LOGS = Path.of("target", "packaged-jar");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    // fresh random secrets: nothing of the test profile or the development launcher
    private static final String PSP_KEY = secret();
    private static final String SIGNING_KEY = secret();
    private static final String SHOP_KEY = secret();
    private static final String ADMIN_KEY = secret();
    private static final String SIM_ADMIN = secret();
    private static final String STRIPE_SECRET = "whsec_" + secret();
    private static final String STRIPE_KEY = "sk_test_" + secret();

    private static Process simulator;
    private static String simUrl;

    @BeforeAll
    static void startSimulator() throws Exception {
        int port = PackagedJar.freePort();
        simUrl = "http://127.0.0.1:" + port;
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SERVER_PORT", String.valueOf(port));
        env.put("PSPSIM_API_KEY", PSP_KEY);
        env.put("PSPSIM_SIGNING_KEY", SIGNING_KEY);
        env.put("PSPSIM_SIGNATURE_ENCODING", "hex");
        env.put("PSPSIM_ADMIN_TOKEN", SIM_ADMIN);
        env.put("PSPSIM_PUBLIC_URL", simUrl);
        simulator = PackagedJar.simulator(env, LOGS.resolve("simulator.log"));
        awaitUp(simulator, simUrl + "/actuator/health", LOGS.resolve("simulator.log"));
    }

    @AfterAll
    static void stopSimulator() {
        PackagedJar.kill(simulator);
    }

    @Test
    void theJarServesTheDemoFlowExposesEveryOperatedMetricAndStopsCleanlyOnSigterm() throws Exception {
        int port = PackagedJar.freePort();
        int managementPort = PackagedJar.freePort();
        String service = "http://127.0.0.1:" + port;
        String management = "http://127.0.0.1:" + managementPort;
        Path log = LOGS.resolve("service.log");
        Process process = PackagedJar.service(productionEnv(port, managementPort), log);
        try {
            awaitUp(process, management + "/actuator/health", log);
            assertThat(new Http(service).get("/actuator/prometheus").status())
                    .as("the public port serves no actuator").isEqualTo(404);

            String orderRef = "smoke-" + System.nanoTime();
            runDemoFlow(new Http(service), orderRef);

            String scrape = new Http(management).get("/actuator/prometheus").body();
            Set<String> exposed = OpsQueries.scrapedNames(scrape);
            Map<String, Set<String>> read = metricsReadByOps();
            Map<String, Set<String>> missing = new TreeMap<>(read);
            missing.keySet().removeAll(exposed);
            assertThat(read).as("queries found under ops/").isNotEmpty();
            assertThat(missing).as("metrics the dashboards and alert rules read that the service does not export")
                    .isEmpty();

            assertThat(PackagedJar.terminate(process, Duration.ofSeconds(90))).as("exit code after SIGTERM")
                    .isEqualTo(0);
        } finally {
            PackagedJar.kill(process);
        }
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).as("graceful shutdown logged").anyMatch(l -> l.contains("Commencing graceful shutdown"));
        assertThat(lines).as("graceful shutdown logged").anyMatch(l -> l.contains("Graceful shutdown complete"));
        assertThat(lines).as("ERROR lines in " + log).noneMatch(PackagedJarIT::isError);
        assertThat(String.join("\n", lines)).as("no secret in the log")
                .doesNotContain(PSP_KEY, SIGNING_KEY, SHOP_KEY, ADMIN_KEY, STRIPE_SECRET, STRIPE_KEY);
    }

    @ParameterizedTest(name = "without {0}")
    @ValueSource(strings = { "PSP_API_KEY", "APP_PUBLIC_URL", "SHOP_RETURN_URL", "SPRING_DATASOURCE_URL" })
    void theJarRefusesToStartWithoutARequiredVariableNamingIt(String variable) throws Exception {
        Map<String, String> env = productionEnv(PackagedJar.freePort(), PackagedJar.freePort());
        env.remove(variable);
        Path log = LOGS.resolve("without-" + variable + ".log");
        Process process = PackagedJar.service(env, log);
        try {
            assertThat(process.waitFor(START.toMillis(), TimeUnit.MILLISECONDS)).as("exited").isTrue();
            assertThat(process.exitValue()).isNotZero();
        } finally {
            PackagedJar.kill(process);
        }
        String output = Files.readString(log);
        assertThat(output).contains(variable + " is not set")
                .doesNotContain(PSP_KEY, SIGNING_KEY, SHOP_KEY, ADMIN_KEY, STRIPE_SECRET, STRIPE_KEY)
                .doesNotContain("\tat ").doesNotContain("error.stack_trace");
    }

    /**
     * Metric name → the files under {@code ops/} that read it: every dashboard ({@code ops/grafana/**.json})
     * and every rule file ({@code ops/prometheus/*.yml} with a top-level {@code groups:}; not the scrape
     * configuration, not promtool's rule tests), without the series Prometheus writes itself.
     */
    private static Map<String, Set<String>> metricsReadByOps() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String dir : List.of("../ops/grafana", "../ops/prometheus")) {
            if (Files.isDirectory(Path.of(dir))) {
                try (Stream<Path> walk = Files.walk(Path.of(dir))) {
                    walk.filter(Files::isRegularFile).filter(p -> {
                        String name = p.getFileName().toString();
                        return dir.endsWith("grafana") ? name.endsWith(".json")
                                : (name.endsWith(".yml") || name.endsWith(".yaml")) && isRuleFile(p);
                    }).sorted().forEach(files::add);
                }
            }
        }
        Map<String, Set<String>> read = new TreeMap<>();
        for (Path file : files) {
            for (String name : OpsQueries.metricNames(file)) {
                read.computeIfAbsent(name, n -> new TreeSet<>()).add(file.toString());
            }
        }
        read.keySet().removeAll(OpsQueries.PROMETHEUS_SERIES);
        return read;
    }

    private static boolean isRuleFile(Path yml) {
        try {
            return Files.readString(yml).lines().anyMatch(line -> line.startsWith("groups:"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The contract's variables, as an operator sets them; the actuator on the management port. */
    private static Map<String, String> productionEnv(int port, int managementPort) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SPRING_DATASOURCE_URL", TestDatabase.url());
        env.put("SPRING_DATASOURCE_USERNAME", TestDatabase.user());
        env.put("SPRING_DATASOURCE_PASSWORD", TestDatabase.password());
        env.put("PSP_API_URL", simUrl);
        env.put("PSP_API_KEY", PSP_KEY);
        env.put("PSP_SIGNING_KEY", SIGNING_KEY);
        env.put("STRIPE_WEBHOOK_SECRET", STRIPE_SECRET);
        env.put("STRIPE_API_KEY", STRIPE_KEY);
        env.put("STRIPE_API_BASE", simUrl + "/no-stripe-here");
        env.put("SHOP_API_KEYS", SHOP_KEY);
        env.put("ADMIN_API_KEYS", ADMIN_KEY);
        env.put("NOTIFY_SINK_URL", simUrl + "/sink/notify");
        env.put("CONVERSION_SINK_URL", simUrl + "/sink/conversion");
        env.put("FULFILMENT_SINK_URL", simUrl + "/sink/fulfilment");
        env.put("APP_PUBLIC_URL", "http://127.0.0.1:" + port);
        env.put("SHOP_RETURN_URL", simUrl + "/sink/thank-you");
        env.put("SHOP_RETURN_URL_PREFIXES", simUrl + "/sink/");
        env.put("SERVER_PORT", String.valueOf(port));
        env.put("MANAGEMENT_SERVER_PORT", String.valueOf(managementPort));
        return env;
    }

    /**
     * scripts/demo.sh's steps — create, checkout, pay on the hosted page, PAID, order_paid at the sink — and
     * a refused Stripe webhook, so every meter the dashboard reads has had its first event.
     */
    private static void runDemoFlow(Http service, String orderRef) {
        Http.Response created = service.bearer(SHOP_KEY).post("/api/orders", """
                {"orderRef":"%s","amount":"10.01","currency":"EUR","customer":{"referenceId":"cust-1"}}"""
                .formatted(orderRef));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Http frontend = service.bearer(created.json().path("clientToken").asString());

        Http.Response checkout = frontend.post("/api/orders/" + orderRef + "/checkout", (String) null);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String redirect = checkout.json().path("redirectUrl").asString();
        assertThat(redirect).startsWith(simUrl + "/hosted/");

        Http.Response paid = new Http(redirect).post("/pay", (String) null);
        assertThat(paid.status()).as("hosted page").isEqualTo(303);

        awaitTrue(() -> "PAID".equals(frontend.get("/api/orders/" + orderRef + "/return").json()
                .path("status").asString()), "order " + orderRef + " PAID");
        awaitTrue(() -> {
            JsonNode sink = new Http(simUrl).bearer(SIM_ADMIN).get("/sim/sink").json();
            for (JsonNode received : sink) {
                if (received.path("path").asString().equals("/sink/fulfilment")
                        && received.path("idempotencyKey").asString().endsWith(":order_paid")
                        && received.path("body").asString().contains(orderRef)) {
                    return true;
                }
            }
            return false;
        }, "order_paid of " + orderRef + " at the simulator's sink");

        // a forged Stripe delivery: refused, and its outcome counted (the Stripe panels and alerts read it)
        assertThat(service.header("Stripe-Signature", "t=1,v1=00").post("/webhooks/stripe", "{}").status())
                .isEqualTo(400);
    }

    private static boolean isError(String line) {
        if (line.startsWith("{")) {
            try {
                return "ERROR".equals(JSON.readTree(line).path("log.level").asString());
            } catch (RuntimeException notJson) {
                return line.contains("ERROR");
            }
        }
        return line.contains("ERROR") || line.contains("Exception");
    }

    private static void awaitUp(Process process, String healthUrl, Path log) throws InterruptedException {
        long deadline = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("exited with " + process.exitValue() + " during start; see " + log);
            }
            try {
                Http.Response health = new Http(healthUrl).get("");
                if (health.status() == 200 && "UP".equals(health.json().path("status").asString())) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // connection refused while it starts
            }
            Thread.sleep(500);
        }
        throw new AssertionError(healthUrl + " not UP within " + START + "; see " + log);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + FLOW.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError(what + " not seen within " + FLOW);
    }

    private static String secret() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
