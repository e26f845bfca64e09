package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.Polls;
import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Instances;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

import com.github.tomakehurst.wiremock.client.MappingBuilder;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The exits raced from two instances (this test's application and a second one with its own pool,
 * against the same database): a duplicate charge is refunded with exactly one PSP POST however often
 * and wherever it is asked; an UNKNOWN refund is abandoned — and its reservation released — once.
 */
class TwoInstanceExitsIntegrationTests extends IntegrationTest {

    static ConfigurableApplicationContext second;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Polls polls;

    @Autowired
    MeterRegistry meters;

    @BeforeAll
    static void startSecondInstance() {
        second = Instances.start(Map.of("payments.duplicates.auto-refund", "true"));
    }

    @AfterAll
    static void stopSecondInstance() {
        second.close();
    }

    Http[] both() {
        Http other = new Http("http://localhost:" + second.getEnvironment().getProperty("local.server.port"));
        return new Http[] { http().bearer(Shop.ADMIN_KEY), other.bearer("test-anna-key") };
    }

    static MappingBuilder refundCreate() {
        return createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")));
    }

    int refundPostsFor(String parent) {
        return psp.countRequestsMatching(postRequestedFor(urlEqualTo("/api/v1/payments"))
                .withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")))
                .withRequestBody(matchingJsonPath("$.parentPaymentId", equalTo(parent))).build()).getCount();
    }

    /** An order paid once, plus the abandoned attempt's hidden payment that completed: a duplicate charge. */
    String duplicateCharge() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("21.00", "EUR");
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String hiddenRef = shop.checkout(order.orderRef()).json().path("referenceId").asString();
        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/attempts/" + hiddenRef + "/abandon", "{}").status())
                .isEqualTo(200);
        psp.resetAll();
        psp.stubFor(createCall().willReturn(created("pay-p-" + order.orderRef(), "COMPLETED", "21.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        String hidden = "pay-h-" + order.orderRef();
        Response hook = shop.webhook(payment(hidden, hiddenRef, "DEPOSIT", "COMPLETED", "21.00", "EUR"));
        assertThat(hook.json().path("status").asString()).isEqualTo("duplicate_charge");
        psp.resetAll();
        return hidden;
    }

    static List<Response> race(int calls, java.util.function.IntFunction<Response> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(calls);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> futures = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            int n = i;
            futures.add(pool.submit((Callable<Response>) () -> {
                start.await();
                return call.apply(n);
            }));
        }
        start.countDown();
        List<Response> answers = new ArrayList<>();
        for (Future<Response> f : futures) {
            answers.add(f.get());
        }
        pool.shutdown();
        return answers;
    }

    @Test
    @DisplayName("a duplicate charge refunded from two instances at once is POSTed to the PSP exactly once")
    void duplicateChargeRefundRacedFromTwoInstancesPostsOnce() throws Exception {
        String hidden = duplicateCharge();
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-" + hidden, null, "REFUND", "COMPLETED",
                "21.00", "EUR"))).withFixedDelay(700)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        Http[] instances = both();
        List<Response> answers = race(6, n -> instances[n % 2]
                .post("/api/admin/duplicate-charges/" + hidden + "/refund", "{\"reason\":\"double charge\"}"));

        assertThat(refundPostsFor(hidden)).isEqualTo(1);
        assertThat(answers.stream().filter(a -> a.status() == 201).count()).isEqualTo(1);
        assertThat(answers).allMatch(a -> a.status() == 201 || a.status() == 200 || a.status() == 409);
        Response replay = instances[1].post("/api/admin/duplicate-charges/" + hidden + "/refund", "{}");
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.json().path("state").asString()).isEqualTo("DONE");
        assertThat(replay.json().path("pspPaymentId").asString()).isEqualTo(hidden);
        assertThat(refundPostsFor(hidden)).as("however often").isEqualTo(1);
        // the auto-refund of the second instance finds nothing left to refund
        second.getBean(Polls.class).run("duplicate-auto-refund");
        assertThat(refundPostsFor(hidden)).isEqualTo(1);
        assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/duplicate-charges/pay-none/refund", "{}").status())
                .isEqualTo(404);
    }

    @Test
    @DisplayName("with payments.duplicates.auto-refund the duplicate sweep refunds a second charge without an operator, once")
    void autoRefundRefundsASecondChargeOnce() {
        String hidden = duplicateCharge();
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-" + hidden, null, "REFUND", "PENDING",
                "21.00", "EUR")))));
        Polls polls = second.getBean(Polls.class);
        polls.run("duplicate-auto-refund");
        polls.run("duplicate-auto-refund");
        assertThat(refundPostsFor(hidden)).isEqualTo(1);
        var row = jdbc.sql("""
                SELECT r.state AS refund_state, r.requested_by AS refund_requested_by
                  FROM psp_refund_attempt r JOIN duplicate_charge d ON d.id = r.duplicate_charge_id
                 WHERE d.psp_payment_id = :p""").param("p", hidden).query().singleRow();
        assertThat(row.get("refund_state")).isEqualTo("DONE");
        assertThat(row.get("refund_requested_by")).isEqualTo("auto-refund");
    }

    @Test
    @DisplayName("without payments.duplicates.auto-refund the duplicate-auto-refund poll runs, metered, and claims nothing")
    void withoutAutoRefundThePollRefundsNothing() {
        String hidden = duplicateCharge();
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-" + hidden, null, "REFUND", "COMPLETED",
                "21.00", "EUR")))));
        double runs = meters.counter("payments.job.runs", JobMetrics.TAG, "duplicate-auto-refund").count();
        double claimed = meters.counter("payments.job.claimed", JobMetrics.TAG, "duplicate-auto-refund").count();
        polls.run("duplicate-auto-refund"); // this instance runs with the default, auto-refund off
        assertThat(refundPostsFor(hidden)).isZero();
        assertThat(jdbc.sql("""
                SELECT count(*) FROM psp_refund_attempt r JOIN duplicate_charge d ON d.id = r.duplicate_charge_id
                 WHERE d.psp_payment_id = :p""").param("p", hidden).query(Long.class).single()).isZero();
        assertThat(meters.counter("payments.job.runs", JobMetrics.TAG, "duplicate-auto-refund").count()).isEqualTo(runs + 1);
        assertThat(meters.counter("payments.job.claimed", JobMetrics.TAG, "duplicate-auto-refund").count()).isEqualTo(claimed);
    }

    @Test
    @DisplayName("an UNKNOWN refund abandoned from two instances at once is abandoned and released exactly once")
    void refundAbandonRacedFromTwoInstancesReleasesOnce() throws Exception {
        Shop shop = new Shop(http());
        var order = shop.createOrder("30.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-" + order.orderRef(), "COMPLETED", "30.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        psp.resetAll();
        Http admin = http().bearer(Shop.ADMIN_KEY);
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-ok-" + order.orderRef(), null, "REFUND",
                "COMPLETED", "10.00", "EUR")))));
        assertThat(admin.header("Idempotency-Key", "done").post("/api/orders/" + order.orderRef() + "/refunds",
                "{\"amount\":\"10.00\",\"currency\":\"EUR\"}").status()).isEqualTo(201);
        psp.stubFor(refundCreate().willReturn(aResponse().withStatus(503)));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String reference = admin.header("Idempotency-Key", "lost").post("/api/orders/" + order.orderRef() + "/refunds",
                "{\"amount\":\"20.00\",\"currency\":\"EUR\"}").json().path("referenceId").asString();
        assertThat(refunded(order.orderRef())).isEqualByComparingTo("30.00");

        Http[] instances = both();
        List<Response> answers = race(6, n -> instances[n % 2].post("/api/admin/refunds/" + reference + "/abandon", "{}"));

        assertThat(answers.stream().filter(a -> a.status() == 200).count()).isEqualTo(1);
        assertThat(answers).filteredOn(a -> a.status() != 200).allMatch(a -> a.status() == 409
                && a.problemSlug().equals("refund-not-open"));
        assertThat(refunded(order.orderRef())).as("released once").isEqualByComparingTo("10.00");
    }

    BigDecimal refunded(String orderRef) {
        return jdbc.sql("SELECT refunded_amount FROM orders WHERE order_ref = :ref").param("ref", orderRef)
                .query(BigDecimal.class).single();
    }
}
