package com.acme.payments.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.outbox.OutboxEntry;
import com.acme.payments.outbox.OutboxStore;

/** Dead effects in the console: listed, discarded with a reason (required, as the API's), redriven; audited. */
class ConsoleDeadEffectsIntegrationTests extends ConsoleFixtures {

    @Autowired
    OutboxStore outbox;

    @Autowired
    TransactionTemplate transactions;

    @Test
    @DisplayName("a dead effect is discarded with a reason under the key's name; without a reason it is a 400")
    void discardADeadEffect() {
        long id = deadEffect();
        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        assertThat(anna.get("/console/dead-effects").body()).contains("/console/outbox/" + id + "/discard");

        HttpResponse<String> blank = anna.post("/console/outbox/" + id + "/discard", Map.of("reason", " "));
        assertThat(blank.statusCode()).isEqualTo(400);
        assertThat(blank.body()).contains("reason");
        assertThat(state(id)).isEqualTo("dead");

        anna.get("/console/dead-effects");
        HttpResponse<String> discarded = anna.post("/console/outbox/" + id + "/discard",
                Map.of("reason", "sink retired"));
        assertThat(discarded.statusCode()).as(discarded.body()).isEqualTo(302);
        assertThat(jdbc.sql("SELECT state || ' ' || discarded_by || ' ' || discard_reason FROM outbox WHERE id = :id")
                .param("id", id).query(String.class).single()).isEqualTo("discarded anna sink retired");
        assertThat(jdbc.sql("SELECT actor || ' ' || action || ' ' || outcome FROM operator_action WHERE target = :t")
                .param("t", "outbox:" + id).query(String.class).list()).containsExactly("anna discard done");

        anna.get("/console/dead-effects");
        HttpResponse<String> again = anna.post("/console/outbox/" + id + "/redrive", Map.of());
        assertThat(again.statusCode()).as("not dead any more: the API's 409").isEqualTo(409);
        assertThat(again.body()).contains("not dead");
    }

    @Test
    @DisplayName("a dead effect is redriven: pending again, audited")
    void redriveADeadEffect() {
        long id = deadEffect();
        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        anna.get("/console/dead-effects");
        assertThat(anna.post("/console/outbox/" + id + "/redrive", Map.of()).statusCode()).isEqualTo(302);
        assertThat(state(id)).isEqualTo("pending");
        assertThat(jdbc.sql("SELECT actor || ' ' || action || ' ' || outcome FROM operator_action WHERE target = :t")
                .param("t", "outbox:" + id).query(String.class).list()).containsExactly("anna redrive done");
    }

    private long deadEffect() {
        String source = "console_" + UUID.randomUUID();
        transactions.executeWithoutResult(tx -> outbox.enqueue(new OutboxEntry("renewal_notice", "subscription",
                "sub_" + source, source, Map.of("kind", "renewal_notice", "subscriptionId", "sub_" + source))));
        long id = jdbc.sql("SELECT id FROM outbox WHERE aggregate_id = :a").param("a", "sub_" + source)
                .query(Long.class).single();
        jdbc.sql("UPDATE outbox SET state = 'dead', attempts = 10, last_error = 'HTTP 500', dead_at = now() "
                + "WHERE id = :id").param("id", id).update();
        return id;
    }

    private String state(long id) {
        return jdbc.sql("SELECT state FROM outbox WHERE id = :id").param("id", id).query(String.class).single();
    }
}
