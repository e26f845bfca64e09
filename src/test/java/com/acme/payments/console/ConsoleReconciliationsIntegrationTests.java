package com.acme.payments.console;

import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Checkouts;
import com.acme.payments.support.Shop;

/**
 * The console's reconciliation runs: started by an operator as {@code POST /api/admin/reconciliations} starts
 * them (its window rules, its audit), listed, and read with their mismatches; a read-only session sees no form
 * and its post is refused.
 */
class ConsoleReconciliationsIntegrationTests extends ConsoleFixtures {

    private static final Pattern RUN = Pattern.compile("/console/reconciliations/([0-9a-f-]{36})$");

    @Test
    @DisplayName("an operator starts a run over a UTC window, is sent to it, sees its mismatches, and the list shows it")
    void operatorStartsARunAndReadsItsMismatches() {
        Instant from = Instant.now();
        String orderRef = Checkouts.paidOrder(new Shop(http()), psp, jdbc, "50.00");
        String attempt = jdbc.sql("SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id "
                + "WHERE o.order_ref = :r").param("r", orderRef).query(String.class).single();
        // the PSP's listing: our payment for another amount, and money the service never saw
        psp.stubFor(findCall().withQueryParam("createdAt.gte", matching(".+")).willReturn(okJson(envelope(
                "{\"items\":[" + payment("pay-" + orderRef, attempt, "DEPOSIT", "COMPLETED", "49.00", "EUR") + "," + payment("pay-unseen-" + orderRef, null, "DEPOSIT", "COMPLETED",
                                "12.00", "EUR") + "],\"page\":0,\"hasNext\":false}"))));

        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        assertThat(anna.get("/console/reconciliations").body()).contains("id=\"start-reconciliation\"");
        HttpResponse<String> started = anna.post("/console/reconciliations", Map.of(
                "from", LocalDateTime.ofInstant(from, ZoneOffset.UTC).toString(),
                "to", Instant.now().plusSeconds(60).toString()));
        assertThat(started.statusCode()).as(started.body()).isEqualTo(302);
        Matcher run = RUN.matcher(started.headers().firstValue("Location").orElseThrow());
        assertThat(run.find()).as(started.headers().toString()).isTrue();
        String runId = run.group(1);

        await().atMost(Duration.ofSeconds(60))
                .until(() -> anna.get("/console/reconciliations/" + runId).body().contains(">done<"));
        HttpResponse<String> page = anna.get("/console/reconciliations/" + runId);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("amount_mismatch").contains("pay-" + orderRef)
                .contains("href=\"/console/orders/" + orderRef + "\"").contains("50.00 EUR").contains("49.00 EUR")
                .contains("missing_here").contains("pay-unseen-" + orderRef).contains("12.00 EUR")
                .contains("anna");
        assertThat(anna.get("/console/reconciliations").body()).contains("data-run=\"" + runId + "\"");
        assertThat(jdbc.sql("SELECT requested_by FROM books_reconciliation_run WHERE id = CAST(:id AS uuid)")
                .param("id", runId).query(String.class).single()).isEqualTo("anna");
        assertThat(jdbc.sql("""
                SELECT actor || ' ' || action || ' ' || outcome FROM operator_action
                 WHERE target = 'reconciliations' AND at >= :from ORDER BY id""")
                .param("from", from.atOffset(ZoneOffset.UTC)).query(String.class).list())
                .containsExactly("anna reconcile done");
    }

    @Test
    @DisplayName("the API's window rules: to before from, more than 31 days, or no date → 400 page, nothing started")
    void windowRulesAreTheApis() {
        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        long before = runs();
        for (Map<String, String> window : new Map[] {
                Map.of("from", "2026-02-01", "to", "2026-01-01"),
                Map.of("from", "2026-01-01", "to", "2026-02-01T00:00:01"),
                Map.of("from", "yesterday", "to", "2026-01-01") }) {
            anna.get("/console/reconciliations");
            HttpResponse<String> refused = anna.post("/console/reconciliations", window);
            assertThat(refused.statusCode()).as(window.toString()).isEqualTo(400);
            assertThat(refused.body()).as(window.toString()).containsAnyOf("to: ", "from: ")
                    .doesNotContain("Exception");
        }
        assertThat(runs()).isEqualTo(before);
    }

    @Test
    @DisplayName("a read-only session sees the runs but no form, and a start it posts anyway is 403, nothing started")
    void readOnlySessionMayNotStartARun() {
        ConsoleClient auditor = console();
        auditor.signIn(READ_KEY);
        HttpResponse<String> list = auditor.get("/console/reconciliations");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("Reconciliations").doesNotContain("start-reconciliation");
        long before = runs();
        HttpResponse<String> posted = auditor.post("/console/reconciliations",
                Map.of("from", "2026-01-01", "to", "2026-01-02"));
        assertThat(posted.statusCode()).isEqualTo(403);
        assertThat(runs()).isEqualTo(before);
    }

    private long runs() {
        return jdbc.sql("SELECT count(*) FROM books_reconciliation_run").query(Long.class).single();
    }
}
