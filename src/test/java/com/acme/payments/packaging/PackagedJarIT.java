package com.acme.payments.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.acme.payments.support.Http;
import com.acme.payments.support.OpsQueries;

/**
 * The artifact we ship, started from the outside: {@code java -jar target/payments-*.jar}
 * with a production-like environment — no profile, no development secrets, every variable of the contract,
 * the actuator on its own management port — against this run's fresh test database, and the PSP simulator
 * started from its own jar the way its image starts it. The demo flow runs over HTTP, the dashboards' and
 * alert rules' metric names (read with {@link OpsQueries}) are held against a real scrape, and SIGTERM must end the service cleanly.
 * Runs in {@code ./mvnw verify} after {@code package} (failsafe). Every wait is an upper bound.
 */
class PackagedJarIT {

    private static final Duration START = PackagedJar.START;
    private static final Path LOGS = PackagedJar.LOGS;

    // fresh random secrets: nothing of the test profile or the development launcher
    private static final String PSP_KEY = PackagedJar.secret();
    private static final String SIGNING_KEY = PackagedJar.secret();
    private static final String SHOP_KEY = PackagedJar.secret();
    private static final String ADMIN_KEY = PackagedJar.secret();
    private static final String SIM_ADMIN = PackagedJar.secret();
    private static final String STRIPE_SECRET = "whsec_" + PackagedJar.secret();
    private static final String STRIPE_KEY = "sk_test_" + PackagedJar.secret();

    private static Process simulator;
    private static String simUrl;

    @BeforeAll
    static void startSimulator() throws Exception {
        int port = PackagedJar.freePort();
        simUrl = "http://127.0.0.1:" + port;
        Map<String, String> env = PackagedJar.simulatorEnv(port, simUrl, SIM_ADMIN);
        env.put("PSPSIM_API_KEY", PSP_KEY);
        env.put("PSPSIM_SIGNING_KEY", SIGNING_KEY);
        env.put("PSPSIM_SIGNATURE_ENCODING", "hex");
        simulator = PackagedJar.simulator(env, LOGS.resolve("simulator.log"));
        PackagedJar.awaitUp(simulator, simUrl + "/actuator/health", LOGS.resolve("simulator.log"));
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
            PackagedJar.awaitUp(process, management + "/actuator/health", log);
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

            PackagedJar.assertStopsCleanly(process, log, line -> false, PSP_KEY, SIGNING_KEY, SHOP_KEY, ADMIN_KEY,
                    STRIPE_SECRET, STRIPE_KEY);
        } finally {
            PackagedJar.kill(process);
        }
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
        for (String dir : List.of("ops/grafana", "ops/prometheus")) {
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
        Map<String, String> env = PackagedJar.serviceEnv(port, managementPort, "http://127.0.0.1:" + port, simUrl,
                SHOP_KEY, ADMIN_KEY);
        env.put("PSP_API_URL", simUrl);
        env.put("PSP_API_KEY", PSP_KEY);
        env.put("PSP_SIGNING_KEY", SIGNING_KEY);
        env.put("STRIPE_WEBHOOK_SECRET", STRIPE_SECRET);
        env.put("STRIPE_API_KEY", STRIPE_KEY);
        env.put("STRIPE_API_BASE", simUrl + "/no-stripe-here");
        return env;
    }

    /**
     * ops/demo.sh's steps — create, checkout, pay on the hosted page, PAID, order_paid at the sink — and
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

        PackagedJar.awaitTrue(() -> "PAID".equals(frontend.get("/api/orders/" + orderRef + "/return").json()
                .path("status").asString()), "order " + orderRef + " PAID");
        PackagedJar.awaitTrue(() -> !PackagedJar.delivered(PackagedJar.sink(simUrl, SIM_ADMIN), "/sink/fulfilment",
                "order_paid", orderRef).isEmpty(), "order_paid of " + orderRef + " at the simulator's sink");

        // a forged Stripe delivery: refused, and its outcome counted (the Stripe panels and alerts read it)
        assertThat(service.header("Stripe-Signature", "t=1,v1=00").post("/webhooks/stripe", "{}").status())
                .isEqualTo(400);
    }
}
