package com.acme.payments.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Http;
import com.acme.payments.support.TestDatabase;

import tools.jackson.databind.JsonNode;

/**
 * The jar we ship with {@code PSP_PROVIDER=stripe}: two
 * {@code java -jar target/payments-*.jar} processes on one database, in the production environment
 * (no profile, no development secrets, none of the three Gateway {@code PSP_*} settings, which stripe
 * does not need) with {@code PAYMENTS_STRIPE_CAPTURE_METHOD=manual}, against the simulator's jar with
 * its Stripe surface, whose events go to the first instance's {@code /webhooks/stripe}. The walk
 * alternates instances, as a load balancer would: order A is authorized on the hosted page, captured,
 * refunded partly, refunded with a refund Stripe fails late (pending, then settled {@code failed}: its
 * reservation comes back and {@code refund_failed} is sent), refused above its remainder and refunded
 * fully; order B is authorized and voided. At the end the money invariants hold and every process
 * stops cleanly on SIGTERM. Every wait is an upper bound.
 */
class PackagedJarStripeIT {

    private static final Path LOGS = PackagedJar.LOGS.resolve("stripe");

    // fresh random secrets: nothing of the test profile or the development launcher
    private static final String SHOP_KEY = PackagedJar.secret();
    private static final String ADMIN_KEY = PackagedJar.secret();
    private static final String SIM_ADMIN = PackagedJar.secret();
    private static final String STRIPE_SECRET = "whsec_" + PackagedJar.secret();
    private static final String STRIPE_KEY = "sk_test_" + PackagedJar.secret();

    /** The late-failing refund: 1.11 EUR, in Stripe's minor units, stays pending until the admin API settles it. */
    private static final String PENDING_REFUND = "1.11";

    private final List<Process> processes = new ArrayList<>();
    private String simUrl;

    @AfterEach
    void killWhatIsLeft() {
        processes.forEach(PackagedJar::kill);
    }

    @Test
    void twoInstancesOnStripePayCaptureRefundAndVoidAnOrderAndStopCleanly() throws Exception {
        TestDatabase.url(); // created before any process starts, so all three start together
        int simPort = PackagedJar.freePort();
        simUrl = "http://127.0.0.1:" + simPort;
        int[] ports = { PackagedJar.freePort(), PackagedJar.freePort() };
        int[] managementPorts = { PackagedJar.freePort(), PackagedJar.freePort() };
        String first = "http://127.0.0.1:" + ports[0];

        Map<String, String> simEnv = PackagedJar.simulatorEnv(simPort, simUrl, SIM_ADMIN);
        simEnv.put("PSPSIM_STRIPE_API_KEY", STRIPE_KEY);
        simEnv.put("PSPSIM_STRIPE_WEBHOOK_SECRET", STRIPE_SECRET);
        simEnv.put("PSPSIM_STRIPE_WEBHOOK_URL", first + "/webhooks/stripe");
        simEnv.put("PSPSIM_STRIPE_REFUND_PENDING_AMOUNTS", "111");
        Path simLog = LOGS.resolve("simulator.log");
        Process simulator = start(PackagedJar.simulator(simEnv, simLog));

        // both instances start at once against the fresh database: Flyway's lock orders their migrations
        Path[] logs = { LOGS.resolve("service-1.log"), LOGS.resolve("service-2.log") };
        Process[] services = new Process[2];
        for (int i = 0; i < 2; i++) {
            services[i] = start(PackagedJar.service(stripeEnv(ports[i], managementPorts[i], first), logs[i]));
        }
        PackagedJar.awaitUp(simulator, simUrl + "/actuator/health", simLog);
        for (int i = 0; i < 2; i++) {
            PackagedJar.awaitUp(services[i], "http://127.0.0.1:" + managementPorts[i] + "/actuator/health", logs[i]);
        }
        Http one = new Http(first);
        Http two = new Http("http://127.0.0.1:" + ports[1]);

        String orderA = "stripe-a-" + System.nanoTime();
        String orderB = "stripe-b-" + System.nanoTime();
        walkOrderA(one, two, orderA);
        walkOrderB(two, one, orderB);

        // the money invariants: never more refunded than paid; each order_paid delivered once by its key
        for (String orderRef : List.of(orderA, orderB)) {
            JsonNode order = order(one, orderRef);
            BigDecimal paid = decimal(order.path("paidAmount"));
            assertThat(decimal(order.path("refundedAmount"))).as("refunded of " + orderRef).isLessThanOrEqualTo(paid);
        }
        List<JsonNode> sink = PackagedJar.sink(simUrl, SIM_ADMIN);
        List<JsonNode> paidA = PackagedJar.delivered(sink, "/sink/fulfilment", "order_paid", orderA);
        assertThat(paidA).as("order_paid of " + orderA).hasSize(1);
        assertThat(PackagedJar.delivered(sink, "/sink/fulfilment", "order_paid", orderB)).as("order_paid of voided " + orderB)
                .isEmpty();
        String intentA = order(one, orderA).path("pspPaymentId").asString();
        assertThat(stripeRefundsSucceeded(intentA)).as("Stripe's succeeded refunds of " + orderA)
                .isEqualByComparingTo("10.00");

        // the late failure is an operator's alert, logged once by the instance that applied it; nothing else is an ERROR
        List<String> alerts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            PackagedJar.assertStopsCleanly(services[i], logs[i], PackagedJarStripeIT::isLateRefundFailure, SHOP_KEY,
                    ADMIN_KEY, STRIPE_SECRET, STRIPE_KEY);
            alerts.addAll(PackagedJar.errorLines(logs[i]));
        }
        assertThat(alerts).as("the late refund failure's ERROR line").hasSize(1);
        assertThat(PackagedJar.terminate(simulator, Duration.ofSeconds(60)))
                .as("the simulator's exit code after SIGTERM").isEqualTo(0);
    }

    /** Authorized on the hosted page, captured on the other instance, refunded partly, late-failed, fully. */
    private void walkOrderA(Http one, Http two, String orderRef) {
        Http frontend = authorize(one, two, orderRef, "10.00");

        Http.Response captured = one.bearer(ADMIN_KEY).post("/api/orders/" + orderRef + "/capture", (String) null);
        assertThat(captured.status()).as(captured.body()).isEqualTo(200);
        PackagedJar.awaitTrue(() -> "PAID".equals(frontend.get("/api/orders/" + orderRef).json().path("status").asString()),
                "order " + orderRef + " PAID after the capture");
        JsonNode paid = order(two, orderRef);
        assertThat(decimal(paid.path("paidAmount"))).isEqualByComparingTo("10.00");
        assertThat(paid.path("pspPaymentId").asString()).startsWith("pi_");

        JsonNode partly = refund(two, orderRef, "3.00", 201);
        assertThat(partly.path("state").asString()).isEqualTo("DONE");
        assertThat(partly.path("pspPaymentId").asString()).startsWith("re_");

        // Stripe keeps this one pending; then it fails: the reservation comes back, refund_failed goes out
        JsonNode late = refund(one, orderRef, PENDING_REFUND, 201);
        String lateId = late.path("pspPaymentId").asString();
        assertThat(late.path("state").asString()).isEqualTo("DONE");
        assertThat(late.path("pspState").asString()).isEqualTo("PENDING");
        assertThat(refunded(two, orderRef)).isEqualByComparingTo("4.11");
        Http.Response settled = new Http(simUrl).bearer(SIM_ADMIN).post("/sim/stripe/refunds/" + lateId + "/settle",
                """
                {"status":"failed","failure_reason":"expired_or_canceled_card"}""");
        assertThat(settled.status()).as(settled.body()).isEqualTo(200);
        PackagedJar.awaitTrue(() -> refunded(two, orderRef).compareTo(new BigDecimal("3.00")) == 0,
                "refundedAmount of " + orderRef + " back to 3.00");
        JsonNode failed = refundView(one, late.path("referenceId").asString());
        assertThat(failed.path("state").asString()).isEqualTo("FAILED");
        assertThat(failed.path("pspState").asString()).isEqualTo("DECLINED");
        assertThat(failed.path("errorCode").asString()).isEqualTo("expired_or_canceled_card");
        PackagedJar.awaitTrue(() -> PackagedJar.delivered(PackagedJar.sink(simUrl, SIM_ADMIN), "/sink/notify",
                "refund_failed", orderRef).stream()
                .anyMatch(r -> r.path("idempotencyKey").asString().equals(lateId + ":refund_failed")),
                "refund_failed of " + lateId + " at the sink");

        Http.Response above = two.bearer(ADMIN_KEY).header("Idempotency-Key", "above-" + orderRef)
                .post("/api/orders/" + orderRef + "/refunds", """
                        {"amount":"7.01","currency":"EUR"}""");
        assertThat(above.status()).as(above.body()).isEqualTo(422);
        assertThat(above.problemSlug()).isEqualTo("refund-exceeds-remainder");
        assertThat(refunded(one, orderRef)).as("a refused refund changes nothing").isEqualByComparingTo("3.00");

        JsonNode rest = refund(one, orderRef, "7.00", 201);
        assertThat(rest.path("state").asString()).isEqualTo("DONE");
        assertThat(refunded(two, orderRef)).isEqualByComparingTo("10.00");
        PackagedJar.awaitTrue(() -> "COMPLETED".equals(refundView(two, rest.path("referenceId").asString())
                .path("pspState").asString()), "the full refund of " + orderRef + " succeeded at Stripe");
        assertThat(refundView(one, partly.path("referenceId").asString()).path("pspState").asString())
                .isEqualTo("COMPLETED");
    }

    /** Authorized, then voided on the other instance: the order failed, nothing paid. */
    private void walkOrderB(Http one, Http two, String orderRef) {
        Http frontend = authorize(one, two, orderRef, "5.00");
        Http.Response voided = one.bearer(ADMIN_KEY).post("/api/orders/" + orderRef + "/void", (String) null);
        assertThat(voided.status()).as(voided.body()).isEqualTo(200);
        PackagedJar.awaitTrue(() -> "PAYMENT_FAILED".equals(frontend.get("/api/orders/" + orderRef).json()
                .path("status").asString()), "order " + orderRef + " PAYMENT_FAILED after the void");
    }

    /**
     * Created on {@code one}, checked out on {@code two}, paid on the simulator's hosted page (manual
     * capture: authorized only), and AUTHORIZED on {@code one}'s return page. Answers the order's token.
     */
    private Http authorize(Http one, Http two, String orderRef, String amount) {
        Http.Response created = one.bearer(SHOP_KEY).post("/api/orders", """
                {"orderRef":"%s","amount":"%s","currency":"EUR","customer":{"referenceId":"cust-1"}}"""
                .formatted(orderRef, amount));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String token = created.json().path("clientToken").asString();

        Http.Response checkout = two.bearer(token).post("/api/orders/" + orderRef + "/checkout", (String) null);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String redirect = checkout.json().path("redirectUrl").asString();
        assertThat(redirect).startsWith(simUrl + "/stripe/pay/cs_");

        Http.Response paid = new Http(redirect).post("/pay", (String) null);
        assertThat(paid.status()).as("hosted page").isEqualTo(303);

        Http frontend = one.bearer(token);
        PackagedJar.awaitTrue(() -> "AUTHORIZED".equals(frontend.get("/api/orders/" + orderRef + "/return").json()
                .path("status").asString()), "order " + orderRef + " AUTHORIZED on the return page");
        return frontend;
    }

    private static boolean isLateRefundFailure(String line) {
        return line.contains("the PSP now reports DECLINED: FAILED, reservation released");
    }

    private static JsonNode refund(Http service, String orderRef, String amount, int status) {
        Http.Response answer = service.bearer(ADMIN_KEY).header("Idempotency-Key", "refund-" + amount + "-" + orderRef)
                .post("/api/orders/" + orderRef + "/refunds", """
                        {"amount":"%s","currency":"EUR"}""".formatted(amount));
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        return answer.json();
    }

    private static JsonNode refundView(Http service, String referenceId) {
        Http.Response view = service.bearer(ADMIN_KEY).get("/api/admin/refunds/" + referenceId);
        assertThat(view.status()).as(view.body()).isEqualTo(200);
        return view.json();
    }

    private static BigDecimal refunded(Http service, String orderRef) {
        return decimal(order(service, orderRef).path("refundedAmount"));
    }

    /** The order view, read with the shop's key. */
    private static JsonNode order(Http service, String orderRef) {
        Http.Response order = service.bearer(SHOP_KEY).get("/api/orders/" + orderRef);
        assertThat(order.status()).as(order.body()).isEqualTo(200);
        return order.json();
    }

    /** The refunds Stripe (the simulator) holds as succeeded for a PaymentIntent, in EUR (minor units / 100). */
    private BigDecimal stripeRefundsSucceeded(String paymentIntent) {
        long minor = 0;
        for (JsonNode refund : new Http(simUrl).bearer(SIM_ADMIN).get("/sim/stripe/refunds").json()) {
            if (paymentIntent.equals(refund.path("payment_intent").asString())
                    && "succeeded".equals(refund.path("status").asString())) {
                minor += refund.path("amount").asLong();
            }
        }
        return BigDecimal.valueOf(minor, 2);
    }

    /** A money field of a view; an absent one reads as zero (an order nothing was refunded from, nothing paid for). */
    private static BigDecimal decimal(JsonNode value) {
        return value.isMissingNode() || value.isNull() ? BigDecimal.ZERO : new BigDecimal(value.asString());
    }

    private Process start(Process process) {
        processes.add(process);
        return process;
    }

    /**
     * The production environment with Stripe as the PSP: the shared variables, {@code PSP_PROVIDER=stripe}
     * and its two secrets, the simulator as Stripe's API, manual capture. None of {@code PSP_API_URL},
     * {@code PSP_API_KEY}, {@code PSP_SIGNING_KEY}. {@code APP_PUBLIC_URL} is the first instance for both,
     * as both would have the load balancer's.
     */
    private Map<String, String> stripeEnv(int port, int managementPort, String publicUrl) {
        Map<String, String> env = PackagedJar.serviceEnv(port, managementPort, publicUrl, simUrl, SHOP_KEY, ADMIN_KEY);
        env.put("PSP_PROVIDER", "stripe");
        env.put("STRIPE_API_KEY", STRIPE_KEY);
        env.put("STRIPE_WEBHOOK_SECRET", STRIPE_SECRET);
        env.put("STRIPE_API_BASE", simUrl);
        env.put("PAYMENTS_STRIPE_CAPTURE_METHOD", "manual");
        return env;
    }
}
