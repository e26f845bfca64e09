package com.acme.payments.books;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.psp.PaymentProvider;
import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Shop;
import com.acme.payments.support.SimulatorStack;
import com.acme.payments.sweep.DatabaseGauges;

import tools.jackson.databind.JsonNode;

/**
 * Reconciliation runs against the simulator's Gateway, end to end over HTTP: an instance of the service with
 * the in-process simulator as its PSP. Each test reconciles a window that starts when it starts, so what the
 * tests before it left is outside. The listing is asked two records a page, so every run pages.
 */
class BooksReconciliationSimulatorIntegrationTests {

    private static final String SIM_ADMIN = "sim-admin";

    private static SimulatorStack stack;
    private static Http sim;
    private static Http api;
    private static JdbcClient jdbc;

    @BeforeAll
    static void start() {
        stack = SimulatorStack.start(SIM_ADMIN, serviceUrl -> Map.of(
                "pspsim.api-key", "test-psp-key",
                "pspsim.signing-key", "test-signing-key",
                "pspsim.signature-encoding", "hex"),
                (serviceUrl, simulatorUrl) -> Map.of(
                        "payments.checkout.public-url", serviceUrl,
                        "payments.psp.api-url", simulatorUrl,
                        "payments.books.page-size", 2,
                        "payments.books.retries", 3,
                        "payments.books.retry-delay", "10ms",
                        "payments.books.retry-max-delay", "50ms"));
        sim = stack.sim();
        api = stack.api();
        jdbc = stack.jdbc();
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @BeforeEach
    void noFaults() {
        assertThat(sim.send("DELETE", "/sim/faults", null).status()).isEqualTo(204);
    }

    static Http admin() {
        return api.bearer(Shop.ADMIN_KEY);
    }

    static JsonNode order(String orderRef) {
        return api.bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef).json();
    }

    /** A PAID order: checked out at the simulator and paid on its hosted page; {orderRef, paymentId}. */
    static String[] paidOrder(String amount) {
        String orderRef = new Shop(api).createOrder(amount, "EUR").orderRef();
        Response checkout = new Shop(api).checkout(orderRef);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String paymentId = jdbc.sql("SELECT psp_payment_id FROM orders WHERE order_ref = :r").param("r", orderRef)
                .query(String.class).single();
        assertThat(new Http(stack.simulatorUrl()).post("/hosted/" + paymentId + "/pay", "").status()).isIn(200, 303);
        await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(order(orderRef).path("status").asString()));
        return new String[] { orderRef, paymentId };
    }

    /** A DONE refund of the order, its PSP id. */
    static String refunded(String orderRef, String amount) {
        Response refund = admin().header("Idempotency-Key", "k-" + UUID.randomUUID())
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
        assertThat(refund.status()).as(refund.body()).isEqualTo(201);
        assertThat(refund.json().path("state").asString()).isEqualTo("DONE");
        return refund.json().path("pspPaymentId").asString();
    }

    static Response startRun(Instant from, Instant to) {
        return admin().post("/api/admin/reconciliations", "{\"from\":\"" + from + "\",\"to\":\"" + to + "\"}");
    }

    /** Starts a run of the window and waits for its end; the run's view. */
    static JsonNode reconciled(Instant from, Instant to) {
        Response started = startRun(from, to);
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        assertThat(started.json().path("state").asString()).isEqualTo("running");
        return finished(started.json().path("id").asString());
    }

    static JsonNode finished(String id) {
        await().atMost(Duration.ofSeconds(60)).until(() -> !"running".equals(run(id).path("state").asString()));
        return run(id);
    }

    static JsonNode run(String id) {
        Response read = admin().get("/api/admin/reconciliations/" + id);
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        return read.json();
    }

    static List<String> kinds(JsonNode run) {
        List<String> kinds = new ArrayList<>();
        run.path("mismatches").forEach(m -> kinds.add(m.path("kind").asString() + " " + m.path("pspPaymentId").asString()
                + " " + m.path("orderRef").asString(null)));
        return kinds;
    }

    @Test
    @DisplayName("a clean window: done, no mismatch, every payment and refund counted on both sides, over several pages")
    void cleanWindow() {
        Instant from = Instant.now();
        String[] a = paidOrder("10.00");
        paidOrder("20.00");
        paidOrder("30.00");
        refunded(a[0], "4.00");
        JsonNode run = reconciled(from, Instant.now().plusMillis(1));

        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(run.path("mismatches").size()).as(run.toString()).isZero();
        assertThat(run.path("pspRecords").asInt()).as("three payments and a refund, two a page").isEqualTo(4);
        assertThat(run.path("ourRecords").asInt()).isEqualTo(4);
        assertThat(Instant.parse(run.path("from").asString())).as("to the database's microsecond")
                .isEqualTo(from.truncatedTo(ChronoUnit.MICROS));
        JsonNode listed = admin().get("/api/admin/reconciliations").json();
        assertThat(listed.get(0).path("id").asString()).as("newest first").isEqualTo(run.path("id").asString());
    }

    @Test
    @DisplayName("every page of the listing is read: money the service never saw, on the last page, is found")
    void everyPageIsRead() {
        Instant from = Instant.now();
        paidOrder("31.00");
        paidOrder("32.00");
        paidOrder("33.00");
        paidOrder("34.00");
        String last = sim.post("/sim/payments/unseen", "{\"amount\":\"35.00\",\"currency\":\"EUR\"}").json()
                .path("id").asString();
        JsonNode run = reconciled(from, Instant.now().plusMillis(1));
        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(kinds(run)).as("oldest first, two a page: the third page").containsExactly("missing_here " + last + " null");
        assertThat(run.path("pspRecords").asInt()).isEqualTo(5);
    }

    @Test
    @DisplayName("the four kinds at the Gateway: money it never told us of, an amount changed, a refund failed without an event, a payment it lost")
    void fourKinds() {
        Instant from = Instant.now();
        String unseen = sim.post("/sim/payments/unseen", "{\"amount\":\"12.00\",\"currency\":\"EUR\"}").json()
                .path("id").asString();
        String[] changed = paidOrder("15.00");
        assertThat(sim.post("/sim/payments/" + changed[1] + "/quietly", "{\"amount\":\"14.00\"}").status())
                .isEqualTo(200);
        String[] refundedOrder = paidOrder("16.00");
        String refund = refunded(refundedOrder[0], "6.00");
        assertThat(sim.post("/sim/payments/" + refund + "/quietly", "{\"state\":\"DECLINED\"}").status())
                .isEqualTo(200);
        String[] lost = paidOrder("17.00");
        assertThat(sim.send("DELETE", "/sim/payments/" + lost[1], null).status()).isEqualTo(204);

        JsonNode run = reconciled(from, Instant.now().plusMillis(1));

        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(kinds(run)).as(run.toString()).containsExactlyInAnyOrder(
                "missing_here " + unseen + " null",
                "amount_mismatch " + changed[1] + " " + changed[0],
                "state_mismatch " + refund + " " + refundedOrder[0],
                "missing_there " + lost[1] + " " + lost[0]);
        JsonNode amount = mismatch(run, "amount_mismatch");
        assertThat(amount.path("ours").path("amount").decimalValue()).isEqualByComparingTo("15.00");
        assertThat(amount.path("theirs").path("amount").decimalValue()).isEqualByComparingTo("14.00");
        assertThat(mismatch(run, "missing_here").path("ours").isNull()).isTrue();
        assertThat(mismatch(run, "missing_there").path("theirs").isNull()).isTrue();
        assertThat(mismatch(run, "state_mismatch").path("theirs").path("state").asString()).isEqualTo("DECLINED");
        assertThat(run.path("mismatchCount").asInt()).isEqualTo(4);
        assertThat(order(changed[0]).path("status").asString()).as("it books nothing").isEqualTo("PAID");
    }

    static JsonNode mismatch(JsonNode run, String kind) {
        for (JsonNode m : run.path("mismatches")) {
            if (kind.equals(m.path("kind").asString())) {
                return m;
            }
        }
        throw new AssertionError("no " + kind + " in " + run);
    }

    @Test
    @DisplayName("a listing answered 429 (Retry-After) and 503 is asked again and the run finishes; one that keeps failing fails the run with its reason")
    void rateLimitsAndOutagesAreRetried() {
        Instant from = Instant.now();
        paidOrder("11.00");
        paidOrder("12.00");
        paidOrder("13.00");
        Instant to = Instant.now().plusMillis(1);
        assertThat(sim.post("/sim/faults", """
                [{"operation":"list","fault":"error-before","status":429,"times":2},
                 {"operation":"list","fault":"error-before","status":503,"times":1}]""").status()).isEqualTo(200);
        JsonNode run = reconciled(from, to);
        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(run.path("pspRecords").asInt()).isEqualTo(3);
        assertThat(run.path("mismatches").size()).isZero();

        assertThat(sim.post("/sim/faults", """
                {"operation":"list","fault":"error-before","status":503}""").status()).isEqualTo(200);
        JsonNode failed = reconciled(from, to);
        assertThat(failed.path("state").asString()).as(failed.toString()).isEqualTo("failed");
        assertThat(failed.path("failureReason").asString()).contains("did not answer after 4 tries");
    }

    @Test
    @DisplayName("bad windows are 400: not RFC 3339, missing, from not before to, longer than 31 days; an unknown run is 404")
    void badWindowsAndUnknownRuns() {
        Instant now = Instant.now();
        assertThat(startRun(now, now).status()).isEqualTo(400);
        assertThat(startRun(now, now.minusSeconds(1)).status()).isEqualTo(400);
        assertThat(startRun(now.minus(Duration.ofDays(31)).minusSeconds(1), now).status()).isEqualTo(400);
        Response month = startRun(now.minus(Duration.ofDays(31)), now);
        assertThat(month.status()).as("31 days exactly").isEqualTo(202);
        // to its end here, whatever the month of a shared database holds: a run still going when the class
        // closes its simulator would fail on the lost connection, a row later classes read
        finished(month.json().path("id").asString());
        Response notRfc = admin().post("/api/admin/reconciliations", "{\"from\":\"2026-11-01\",\"to\":\"2026-11-02\"}");
        assertThat(notRfc.status()).isEqualTo(400);
        assertThat(notRfc.json().path("type").asString()).endsWith("validation-failed");
        assertThat(admin().post("/api/admin/reconciliations", "{\"from\":\"2026-11-01T00:00:00Z\"}").status())
                .isEqualTo(400);
        assertThat(admin().get("/api/admin/reconciliations/" + UUID.randomUUID()).status()).isEqualTo(404);
        assertThat(admin().get("/api/admin/reconciliations/not-a-run").status()).isEqualTo(404);
        assertThat(api.bearer(Shop.SHOP_KEY).post("/api/admin/reconciliations",
                "{\"from\":\"" + now.minusSeconds(60) + "\",\"to\":\"" + now + "\"}").status()).isEqualTo(403);
    }

    @Test
    @DisplayName("a run whose instance died is taken over by exactly one of two instances and finishes; one that died too often is failed")
    void twoInstancesOneRunner() throws Exception {
        ConfigurableApplicationContext service = stack.service();
        BooksReconciliationRunStore runs = service.getBean(BooksReconciliationRunStore.class);
        BooksReconciliationOrchestrator one = second(service, "instance-one");
        BooksReconciliationOrchestrator two = second(service, "instance-two");
        Instant from = Instant.now();
        paidOrder("21.00");
        Instant to = Instant.now().plusMillis(1);
        UUID dead = runs.start(from, to, null, "test", "died", Duration.ofMillis(1)).id();
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql(
                "SELECT lease_until < now() FROM books_reconciliation_run WHERE id = :id").param("id", dead)
                .query(Boolean.class).single());

        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<List<UUID>>> taken = pool.invokeAll(List.<Callable<List<UUID>>>of(one::takeOver, two::takeOver));
            List<UUID> all = new ArrayList<>();
            for (Future<List<UUID>> f : taken) {
                all.addAll(f.get());
            }
            assertThat(all).as("one instance took it").containsExactly(dead);
        } finally {
            pool.shutdownNow();
        }
        JsonNode run = finished(dead.toString());
        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(run.path("pspRecords").asInt()).isEqualTo(1);
        UUID alive = runs.start(from, to.plusMillis(2), null, "test", "alive", Duration.ofMinutes(5)).id();
        assertThat(two.takeOver()).as("a run whose instance renews its lease is not another's").doesNotContain(alive);
        jdbc.sql("UPDATE books_reconciliation_run SET state = 'failed', finished_at = now() WHERE id = :id")
                .param("id", alive).update();

        UUID doomed = runs.start(from, to.plusMillis(1), null, "test", "died", Duration.ofMillis(1)).id();
        jdbc.sql("UPDATE books_reconciliation_run SET takeovers = 3 WHERE id = :id").param("id", doomed).update();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            one.takeOver();
            return "failed".equals(run(doomed.toString()).path("state").asString());
        });
        assertThat(run(doomed.toString()).path("failureReason").asString()).contains("stopped 3 times");
    }

    @Test
    @DisplayName("the nightly run: one of two instances starts the previous UTC day, once; its mismatches are the gauge payments_reconciliation_mismatches")
    void nightlyOnceAndCounted() {
        ConfigurableApplicationContext service = stack.service();
        BooksReconciliationOrchestrator one = second(service, "night-one");
        BooksReconciliationOrchestrator two = second(service, "night-two");
        // nights of their own: the JVM's database is every test class's, and a real day holds the records
        // of classes whose PSP this simulator is not (a run looks each of those up, and may fail on them)
        LocalDate night = LocalDate.now(ZoneOffset.UTC).plusYears(100);
        Optional<UUID> first = one.startNight(night);
        Optional<UUID> second = two.startNight(night);
        assertThat(first.isPresent() ^ second.isPresent()).as("exactly one starts it").isTrue();
        JsonNode run = finished(first.orElseGet(second::get).toString());
        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
        assertThat(run.path("night").asString()).isEqualTo(night.toString());

        BooksReconciliationSweeper sweeper = service.getBean(BooksReconciliationSweeper.class);
        LocalDate tonight = night.plusDays(1);
        String prefix = "pay_night_" + UUID.randomUUID().toString().substring(0, 8) + "_";
        assertThat(sim.post("/sim/payments/seed", "{\"prefix\":\"" + prefix + "\",\"count\":2,\"from\":\""
                + tonight.atTime(12, 0).toInstant(ZoneOffset.UTC) + "\",\"stepMillis\":1000}").status())
                .as("two payments the PSP took that night, never told").isEqualTo(200);
        // 23:00 the next day, so the night's run is due
        ZonedDateTime nextDay = tonight.plusDays(1).atTime(23, 0).atZone(ZoneOffset.UTC);
        Optional<UUID> started = sweeper.nightly(nextDay);
        assertThat(started).isPresent();
        JsonNode done = finished(started.get().toString());
        assertThat(done.path("state").asString()).as(done.toString()).isEqualTo("done");
        assertThat(done.path("night").asString()).isEqualTo(tonight.toString());
        assertThat(kinds(done)).as(done.toString()).containsExactlyInAnyOrder("missing_here " + prefix + "0 null",
                "missing_here " + prefix + "1 null");
        assertThat(done.path("mismatchCount").asInt()).isEqualTo(2);
        assertThat(sweeper.nightly(nextDay)).as("once").isEmpty();
        service.getBean(DatabaseGauges.class).refresh();
        String scraped = admin().get("/actuator/prometheus").body();
        assertThat(scraped).as("the newest night's count").containsPattern(
                "(?m)^payments_reconciliation_mismatches\\{[^}]*} 2\\.0$");
    }

    /** Another instance's orchestrator: the same beans, its own name and executor. */
    static BooksReconciliationOrchestrator second(ConfigurableApplicationContext service, String name) {
        return new BooksReconciliationOrchestrator(service.getBean(PaymentProvider.class),
                service.getBean(BooksLedgerStore.class), service.getBean(BooksReconciliationRunStore.class),
                service.getBean(BooksProperties.class), service.getBean(BooksMetrics.class), name);
    }
}
