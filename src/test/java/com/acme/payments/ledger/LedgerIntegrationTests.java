package com.acme.payments.ledger;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.nothingFound;
import static com.acme.payments.support.PspFixtures.payment;
import static com.acme.payments.support.PspFixtures.status;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Semaphore;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.util.AopTestUtils;

import com.acme.payments.support.Checkouts;
import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.github.tomakehurst.wiremock.client.MappingBuilder;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /api/admin/ledger.csv} over real HTTP on real PostgreSQL: a walk through every kind of money
 * movement (paid orders, a refund, a refund DONE and declined later, one refused at once, a refund made in the
 * PSP's back office, a second charge and its refund) shows each movement once, in order, parsed back with
 * Commons CSV; the window's bounds, RFC 4180 quoting and the formula guard, the headers, and the refusals.
 * Other tests of this JVM share the database, so each assertion reads only this test's orders.
 */
class LedgerIntegrationTests extends IntegrationTest {

    private static final String HEADER = "occurredAt,kind,orderRef,pspPaymentId,referenceId,amount,currency";

    @Autowired
    JdbcClient jdbc;

    @Autowired
    LedgerController controller;

    Http admin() {
        return http().bearer(Shop.ADMIN_KEY);
    }

    Response export(Instant from, Instant to) {
        return admin().get("/api/admin/ledger.csv?from=" + from + "&to=" + to);
    }

    /** The records of an export that belong to these orders, checked to be a well-formed RFC 4180 file first. */
    static List<CSVRecord> records(Response answer, Set<String> orderRefs) throws IOException {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).startsWith(HEADER + "\r\n");
        List<CSVRecord> all = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(answer.body())).getRecords();
        return all.stream().filter(r -> orderRefs.contains(r.get("orderRef"))).toList();
    }

    static MappingBuilder refundCreate() {
        return createCall().withRequestBody(matchingJsonPath("$.paymentType", equalTo("REFUND")));
    }

    Response refund(String orderRef, String key, String amount) {
        return admin().header("Idempotency-Key", key).post("/api/orders/" + orderRef + "/refunds",
                "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
    }

    String paidOrder(String amount) {
        return Checkouts.paidOrder(new Shop(http()), psp, jdbc, amount);
    }

    /** An order paid once, plus its abandoned attempt's payment that completed after all: a second charge. */
    String[] secondCharge(String amount) {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder(amount, "EUR").orderRef();
        psp.stubFor(createCall().willReturn(status(503, "{}")));
        psp.stubFor(findCall().willReturn(nothingFound()));
        String hiddenRef = shop.checkout(orderRef).json().path("referenceId").asString();
        assertThat(admin().post("/api/admin/attempts/" + hiddenRef + "/abandon", "{}").status()).isEqualTo(200);
        psp.resetAll();
        psp.stubFor(createCall().willReturn(created("pay-" + orderRef, "COMPLETED", amount, "EUR")));
        assertThat(shop.checkout(orderRef).status()).isEqualTo(200);
        String hidden = "pay-h-" + orderRef;
        Response hook = shop.webhook(payment(hidden, hiddenRef, "DEPOSIT", "COMPLETED", amount, "EUR"));
        assertThat(hook.json().path("status").asString()).isEqualTo("duplicate_charge");
        psp.resetAll();
        return new String[] { orderRef, hidden, hiddenRef };
    }

    /** A refund made in the PSP's back office of {@code parent}: its id is the PSP's, and so is its reference. */
    static String backOfficeRefund(String id, String parent, String amount) {
        ObjectNode refund = JsonMapper.builder().build().createObjectNode().put("id", id).put("referenceId", id)
                .put("paymentType", "REFUND").put("state", "COMPLETED").put("currency", "EUR")
                .put("parentPaymentId", parent);
        refund.put("amount", new java.math.BigDecimal(amount));
        return refund.toString();
    }

    static String reference(Response answer) {
        assertThat(answer.status()).as(answer.body()).isIn(200, 201);
        return answer.json().path("referenceId").asString();
    }

    @Test
    @DisplayName("a walk through every kind of movement lists each once, in order, with its ids and amount")
    void everyKindOfMovementIsListedOnce() throws IOException {
        Instant start = Instant.now().minusSeconds(60);
        Shop shop = new Shop(http());
        String paid = paidOrder("30.00");

        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-ok-" + paid, null, "REFUND", "COMPLETED",
                "5.00", "EUR")))));
        String refunded = reference(refund(paid, "ok", "5.00"));
        psp.resetAll();

        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-late-" + paid, null, "REFUND", "PENDING",
                "4.00", "EUR")))));
        String late = reference(refund(paid, "late", "4.00"));
        psp.resetAll();
        assertThat(shop.webhook(payment("rf-late-" + paid, late, "REFUND", "DECLINED", "4.00", "EUR")).json()
                .path("status").asString()).isEqualTo("applied");

        psp.stubFor(refundCreate().willReturn(status(422, "{\"errorCode\":\"refund_not_allowed\"}")));
        String refused = reference(refund(paid, "refused", "1.00"));
        psp.resetAll();

        String backOffice = "bo-" + UUID.randomUUID();
        assertThat(shop.webhook(backOfficeRefund(backOffice, "pay-" + paid, "3.00")).json().path("status").asString())
                .isEqualTo("applied");

        String[] charge = secondCharge("12.00");
        psp.stubFor(refundCreate().willReturn(okJson(envelope(payment("rf-dc-" + charge[0], null, "REFUND",
                "COMPLETED", "12.00", "EUR")))));
        String chargeRefund = reference(admin().post("/api/admin/duplicate-charges/" + charge[1] + "/refund", "{}"));
        psp.resetAll();

        List<CSVRecord> lines = records(export(start, Instant.now().plusSeconds(60)), Set.of(paid, charge[0]));
        assertThat(lines).extracting(r -> String.join("|", r.get("kind"), r.get("orderRef"), r.get("pspPaymentId"),
                r.get("referenceId"), r.get("amount"), r.get("currency"))).containsExactlyInAnyOrder(
                        "payment|" + paid + "|pay-" + paid + "|" + attempt("pay-" + paid) + "|30.00|EUR",
                        "refund|" + paid + "|rf-ok-" + paid + "|" + refunded + "|5.00|EUR",
                        "refund|" + paid + "|rf-late-" + paid + "|" + late + "|4.00|EUR",
                        "refund_failed|" + paid + "|rf-late-" + paid + "|" + late + "|4.00|EUR",
                        "external_refund|" + paid + "|" + backOffice + "|" + backOffice + "|3.00|EUR",
                        "payment|" + charge[0] + "|pay-" + charge[0] + "|" + attempt("pay-" + charge[0]) + "|12.00|EUR",
                        "duplicate_charge|" + charge[0] + "|" + charge[1] + "|" + charge[2] + "|12.00|EUR",
                        "duplicate_refund|" + charge[0] + "|rf-dc-" + charge[0] + "|" + chargeRefund + "|12.00|EUR");
        assertThat(lines).extracting(r -> r.get("referenceId")).as("a refund refused at once moved no money")
                .doesNotContain(refused);
        List<String> times = lines.stream().map(r -> r.get("occurredAt")).toList();
        assertThat(times).as("oldest first").isSorted();
        assertThat(times).allSatisfy(t -> assertThat(Instant.parse(t)).isBetween(start, Instant.now()));
        assertThat(lines.get(0).get("kind")).isEqualTo("payment");
        assertThat(lines.get(lines.size() - 1).get("kind")).isEqualTo("duplicate_refund");
    }

    String attempt(String paymentId) {
        return jdbc.sql("SELECT reference_id FROM psp_attempt WHERE psp_payment_id = :p").param("p", paymentId)
                .query(String.class).single();
    }

    @Test
    @DisplayName("the window holds what happened from its start (inclusive) until its end (exclusive)")
    void fromIsInclusiveAndToExclusive() throws IOException {
        String orderRef = paidOrder("7.00");
        List<CSVRecord> all = records(export(Instant.now().minusSeconds(600), Instant.now().plusSeconds(60)),
                Set.of(orderRef));
        assertThat(all).hasSize(1);
        Instant paidAt = Instant.parse(all.get(0).get("occurredAt"));
        Instant microsecond = paidAt.plus(1, ChronoUnit.MICROS);

        assertThat(records(export(paidAt, microsecond), Set.of(orderRef))).as("from = the payment's instant")
                .hasSize(1);
        assertThat(records(export(paidAt.minusSeconds(60), paidAt), Set.of(orderRef))).as("to = its instant")
                .isEmpty();
        assertThat(records(export(microsecond, microsecond.plusSeconds(60)), Set.of(orderRef)))
                .as("from just after it").isEmpty();
    }

    @Test
    @DisplayName("RFC 4180: a PSP id with a comma, quotes and a line break is quoted and reads back; a formula is made text")
    void hostileIdsAreQuotedAndNeverAFormula() throws IOException {
        Instant start = Instant.now().minusSeconds(60);
        String orderRef = paidOrder("20.00");
        String hostile = "=HYPERLINK(\"http://evil.test\",\"x\"),\r\n" + UUID.randomUUID();
        assertThat(new Shop(http()).webhook(backOfficeRefund(hostile, "pay-" + orderRef, "2.00")).json().path("status")
                .asString()).isEqualTo("applied");

        Response answer = export(start, Instant.now().plusSeconds(60));
        List<CSVRecord> lines = records(answer, Set.of(orderRef));
        CSVRecord external = lines.stream().filter(r -> r.get("kind").equals("external_refund")).findFirst()
                .orElseThrow();
        assertThat(external.get("pspPaymentId")).isEqualTo("'" + hostile);
        assertThat(external.get("referenceId")).isEqualTo("'" + hostile);
        assertThat(external.get("amount")).isEqualTo("2.00");
        assertThat(answer.body()).contains("\"'=HYPERLINK(\"\"http://evil.test\"\",\"\"x\"\"),\r\n");
    }

    @Test
    @DisplayName("200 text/csv as an attachment, not stored; an empty window is the header line alone")
    void answerHeaders() {
        Response answer = export(Instant.parse("2001-01-01T00:00:00Z"), Instant.parse("2001-01-02T00:00:00Z"));
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("Content-Type")).isEqualToIgnoringWhitespace("text/csv;charset=UTF-8");
        assertThat(answer.header("Content-Disposition"))
                .isEqualTo("attachment; filename=\"ledger-20010101T000000Z-20010102T000000Z.csv\"");
        assertThat(answer.header("Cache-Control")).isEqualTo("no-store");
        assertThat(answer.body()).isEqualTo(HEADER + "\r\n");
    }

    @Test
    @DisplayName("a missing, invalid, reversed, empty or longer-than-366-days window is a 400 naming the bound")
    void badWindowsAre400() {
        String ok = "2026-01-01T00:00:00Z";
        assertBad("/api/admin/ledger.csv?to=" + ok, "from");
        assertBad("/api/admin/ledger.csv?from=" + ok, "to");
        assertBad("/api/admin/ledger.csv", "from");
        assertBad("/api/admin/ledger.csv?from=yesterday&to=" + ok, "from");
        assertBad("/api/admin/ledger.csv?from=2026-01-01T00:00:00&to=2026-02-01T00:00:00Z", "from");
        assertBad("/api/admin/ledger.csv?from=" + ok + "&to=2025-12-31T00:00:00Z", "to");
        assertBad("/api/admin/ledger.csv?from=" + ok + "&to=" + ok, "to");
        assertBad("/api/admin/ledger.csv?from=2025-01-01T00:00:00Z&to=2026-01-02T00:00:01Z", "to");
        assertBad("/api/admin/ledger.csv?from=" + URLEncoder.encode("2026-01-01T00:00:00+01:00", StandardCharsets.UTF_8)
                + "&to=+10000-01-01T00:00:00Z", "to");
        assertThat(admin().get("/api/admin/ledger.csv?from=2025-01-01T00:00:00Z&to=2026-01-02T00:00:00Z").status())
                .as("366 days is allowed").isEqualTo(200);
        assertThat(Duration.ofDays(366)).isEqualTo(LedgerWindow.MAX);
    }

    void assertBad(String path, String field) {
        Response answer = admin().get(path);
        assertThat(answer.status()).as(path).isEqualTo(400);
        assertThat(answer.problemSlug()).isEqualTo("validation-failed");
        assertThat(answer.json().path("errors").findValuesAsString("field")).as(path).contains(field);
    }

    @Test
    @DisplayName("a third export at once on one instance is a 503 service-busy with Retry-After; then it runs")
    void exportsBeyondTwoAtOnceAreBusy() throws InterruptedException {
        Semaphore running = AopTestUtils.<LedgerController>getTargetObject(controller).exports;
        running.acquire(LedgerController.CONCURRENT);
        try {
            Response busy = export(Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-02T00:00:00Z"));
            assertThat(busy.status()).isEqualTo(503);
            assertThat(busy.problemSlug()).isEqualTo("service-busy");
            assertThat(busy.header("Retry-After")).isNotBlank();
        } finally {
            running.release(LedgerController.CONCURRENT);
        }
        assertThat(export(Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-02T00:00:00Z")).status())
                .isEqualTo(200);
    }

    @Test
    @DisplayName("no key is 401, a shop key 403")
    void onlyAnOperatorMayExport() {
        String path = "/api/admin/ledger.csv?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z";
        assertThat(http().get(path).status()).isEqualTo(401);
        assertThat(http().bearer(Shop.SHOP_KEY).get(path).status()).isEqualTo(403);
    }
}
