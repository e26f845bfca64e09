package com.acme.payments.checkout;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.found;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PayloadFaults;
import com.acme.payments.support.PayloadFaults.Fault;
import com.acme.payments.support.Shop;
import com.acme.payments.sweep.Sweeps;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The look-up side: a PSP answer holding a value we cannot book is never applied. The row
 * that asked stays open for the next pass, the fault is counted, nothing answers 500; the next good answer
 * settles it.
 */
class PayloadFaultAnswersIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    AttemptStore attempts;

    @Autowired
    AttemptClaimApplier claims;

    @Autowired
    Sweeps sweeps;

    @Autowired
    MeterRegistry registry;

    static Stream<Fault> faultClasses() {
        return Stream.concat(PayloadFaults.all(), Stream.of(PayloadFaults.overlongId()));
    }

    @BeforeEach
    void otherTestsRowsLookUnknownToThePsp() {
        psp.stubFor(findCall().atPriority(10).willReturn(nothingFound()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faultClasses")
    @DisplayName("the return page reads a payment that cannot be booked: 200, order untouched, fault counted; the next good answer pays it")
    void returnPageLeavesTheOrderForTheNextPass(Fault fault) {
        Shop shop = new Shop(http());
        var order = shop.createOrder(fault.amount(), fault.currency());
        String paymentId = "pay-pfa-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", fault.amount(), fault.currency())));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        double before = answerFaults(fault.kind());

        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(fault.payment(paymentId, null)))));
        Response returned = http().bearer(order.clientToken()).get("/api/orders/" + order.orderRef() + "/return");
        assertThat(returned.status()).as(returned.body()).isEqualTo(200);
        assertThat(returned.json().path("status").asString()).isEqualTo("PROCESSING");
        assertThat(answerFaults(fault.kind()) - before).as("counted").isEqualTo(1.0);

        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(
                payment(paymentId, null, "DEPOSIT", "COMPLETED", "\"" + fault.amount() + "\"", fault.currency())))));
        Response paid = http().bearer(order.clientToken()).get("/api/orders/" + order.orderRef() + "/return");
        assertThat(paid.json().path("status").asString()).isEqualTo("PAID");
        assertThat(paid.json().path("paidAmount").asString()).isEqualTo(fault.amount());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faultClasses")
    @DisplayName("the sweep finds a payment that cannot be booked: the attempt stays UNKNOWN, fault counted; the next good answer settles it")
    void sweepLeavesTheAttemptUnknown(Fault fault) {
        Shop shop = new Shop(http());
        var order = shop.createOrder(fault.amount(), fault.currency());
        long orderId = jdbc.sql("SELECT id FROM orders WHERE order_ref = :r").param("r", order.orderRef())
                .query(Long.class).single();
        String ref = "chk_pf_" + System.nanoTime();
        Attempt attempt = claims.claim(orderId, new BigDecimal(fault.amount()), fault.currency(), "https://shop.test/r",
                ref).attempt();
        attempts.markUnknown(attempt.id());
        backdate(attempt);
        double before = answerFaults(fault.kind());
        String statusBefore = orderStatus(orderId);
        String faulted = fault.overrides().containsKey("referenceId") ? fault.payment("pay-" + ref, null)
                : fault.payment("pay-" + ref, ref);
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref)).willReturn(found(faulted)));

        sweeps.run("checkout");
        assertThat(attempts.find(attempt.id()).orElseThrow().state()).isEqualTo(AttemptState.UNKNOWN);
        assertThat(orderStatus(orderId)).as("untouched").isEqualTo(statusBefore);
        assertThat(answerFaults(fault.kind()) - before).as("counted").isEqualTo(1.0);

        backdate(attempt); // past the sweep's lease
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref)).willReturn(found(
                payment("pay-" + ref, ref, "DEPOSIT", "COMPLETED", "\"" + fault.amount() + "\"", fault.currency()))));
        sweeps.run("checkout");
        assertThat(attempts.find(attempt.id()).orElseThrow().state()).isEqualTo(AttemptState.READY);
        assertThat(orderStatus(orderId)).isEqualTo("PAID");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faultClasses")
    @DisplayName("the abandon's 'ask the PSP once more' reads a payment that cannot be booked: 409 payment-outcome-unknown, the attempt stays UNKNOWN, fault counted")
    void abandonAskingOnceMoreLeavesTheAttemptUnknown(Fault fault) {
        Shop shop = new Shop(http());
        var order = shop.createOrder(fault.amount(), fault.currency());
        long orderId = jdbc.sql("SELECT id FROM orders WHERE order_ref = :r").param("r", order.orderRef())
                .query(Long.class).single();
        String ref = "chk_pfab_" + System.nanoTime();
        Attempt attempt = claims.claim(orderId, new BigDecimal(fault.amount()), fault.currency(), "https://shop.test/r",
                ref).attempt();
        attempts.markUnknown(attempt.id());
        double before = answerFaults(fault.kind());
        String faulted = fault.overrides().containsKey("referenceId") ? fault.payment("pay-" + ref, null)
                : fault.payment("pay-" + ref, ref);
        psp.stubFor(findCall().withQueryParam("referenceId.eq", equalTo(ref)).willReturn(found(faulted)));

        Response abandon = http().bearer(Shop.ADMIN_KEY).post("/api/admin/attempts/" + ref + "/abandon",
                "{\"reason\":\"confirmed never created\"}");
        assertThat(abandon.status()).as(abandon.body()).isEqualTo(409);
        assertThat(abandon.json().path("type").asString()).endsWith("/payment-outcome-unknown");
        assertThat(attempts.find(attempt.id()).orElseThrow().state()).isEqualTo(AttemptState.UNKNOWN);
        assertThat(answerFaults(fault.kind()) - before).as("counted").isEqualTo(1.0);
    }

    /** Older than the in-flight age, and any sweep lease on it run out. */
    private void backdate(Attempt attempt) {
        jdbc.sql("UPDATE psp_attempt SET updated_at = now() - interval '10 minutes', lease_until = NULL WHERE id = :id")
                .param("id", attempt.id()).update();
    }

    private String orderStatus(long orderId) {
        return jdbc.sql("SELECT status FROM orders WHERE id = :id").param("id", orderId).query(String.class).single();
    }

    private double answerFaults(String kind) {
        var counter = registry.find("payments.psp.payload_faults").tags("source", "answer", "fault", kind).counter();
        return counter == null ? 0 : counter.count();
    }
}
