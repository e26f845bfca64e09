package com.acme.payments.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The console's actions: the API's rules and audit, under the signed-in key's name; a read-only session acts not. */
class ConsoleActionsIntegrationTests extends ConsoleFixtures {

    @Test
    @DisplayName("an operator abandons a stuck refund: FAILED/abandoned by the key's name, audited as the API's abandon")
    void operatorAbandonsAStuckRefund() {
        StuckRefund stuck = stuckRefund("20.00");
        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        HttpResponse<String> list = anna.get("/console/unresolved");
        assertThat(list.body()).contains(stuck.referenceId()).contains("Abandon");

        HttpResponse<String> abandoned = anna.post("/console/refunds/" + stuck.referenceId() + "/abandon",
                Map.of("reason", "PSP support: never created"));
        assertThat(abandoned.statusCode()).as(abandoned.body()).isEqualTo(302);
        assertThat(refundState(stuck.referenceId())).isEqualTo("FAILED");
        assertThat(jdbc.sql("SELECT abandoned_by FROM psp_refund_attempt WHERE reference_id = :r")
                .param("r", stuck.referenceId()).query(String.class).single()).isEqualTo("anna");
        assertThat(jdbc.sql("""
                SELECT actor || ' ' || action || ' ' || reason || ' ' || outcome FROM operator_action
                 WHERE target = :t""").param("t", "refund:" + stuck.referenceId()).query(String.class).list())
                .containsExactly("anna abandon PSP support: never created done");
        HttpResponse<String> after = anna.get("/console/unresolved");
        assertThat(after.body()).as("the flash says so").contains(stuck.referenceId() + " abandoned")
                .as("it left the list").doesNotContain("data-reference=\"" + stuck.referenceId() + "\"");
    }

    @Test
    @DisplayName("a rule's refusal is a readable page under the API's status, recorded refused: abandon twice → 409")
    void refusalIsAReadablePage() {
        StuckRefund stuck = stuckRefund("20.00");
        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        anna.get("/console/unresolved");
        assertThat(anna.post("/console/refunds/" + stuck.referenceId() + "/abandon", Map.of("reason", "once"))
                .statusCode()).isEqualTo(302);
        anna.get("/console/unresolved");
        HttpResponse<String> twice = anna.post("/console/refunds/" + stuck.referenceId() + "/abandon",
                Map.of("reason", "twice"));
        assertThat(twice.statusCode()).isEqualTo(409);
        assertThat(twice.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(twice.body()).contains("Refund not open").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(jdbc.sql("SELECT outcome FROM operator_action WHERE target = :t ORDER BY id")
                .param("t", "refund:" + stuck.referenceId()).query(String.class).list())
                .containsExactly("done", "refused");

        anna.get("/console/unresolved");
        HttpResponse<String> tooLong = anna.post("/console/refunds/" + stuck.referenceId() + "/abandon",
                Map.of("reason", "x".repeat(501)));
        assertThat(tooLong.statusCode()).as("validated as the API validates").isEqualTo(400);
        assertThat(tooLong.body()).contains("reason");
    }

    @Test
    @DisplayName("a read-only key sees no action, and an action it posts anyway (with its CSRF token) is 403, nothing changed")
    void readOnlySessionMayNotAct() {
        StuckRefund stuck = stuckRefund("20.00");
        ConsoleClient auditor = console();
        assertThat(auditor.signIn(READ_KEY).statusCode()).isEqualTo(302);
        HttpResponse<String> list = auditor.get("/console/unresolved");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains(stuck.referenceId()).contains("read-only").doesNotContain("Abandon")
                .doesNotContain("/abandon");
        assertThat(auditor.csrf()).as("the sign-out form's token").isNotNull();

        HttpResponse<String> posted = auditor.post("/console/refunds/" + stuck.referenceId() + "/abandon",
                Map.of("reason", "not mine to do"));
        assertThat(posted.statusCode()).isEqualTo(403);
        assertThat(refundState(stuck.referenceId())).isEqualTo("UNKNOWN");
        assertThat(jdbc.sql("SELECT count(*) FROM operator_action WHERE target = :t")
                .param("t", "refund:" + stuck.referenceId()).query(Long.class).single()).isZero();
        for (String page : new String[] { "/console/second-charges", "/console/dead-effects" }) {
            assertThat(auditor.get(page).body()).as(page).doesNotContain("method=\"post\" class=\"inline\"");
        }
    }
}
