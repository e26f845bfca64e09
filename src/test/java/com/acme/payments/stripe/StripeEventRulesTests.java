package com.acme.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

/** What makes a verified Stripe event faulted, and what does not: Stripe's own long or lower-case values stay fine. */
class StripeEventRulesTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static StripeEvent event(String id, String object) {
        return new StripeEvent(id, "invoice.paid", 0, JSON.readTree(object));
    }

    @Test
    @DisplayName("Stripe's lower-case currency, long free text and unkept metadata are not faults")
    void ordinaryValuesAreNotFaults() {
        String description = "d".repeat(2000);
        assertThat(StripeEventRules.faultIn(event("evt_1", """
                {"id":"in_1","currency":"eur","description":"%s","metadata":{"note":"%s","userId":"u1"},
                 "lines":{"data":[{"id":"il_1","currency":"jpy","price":{"id":"price_1"}}]}}
                """.formatted(description, description)))).isEmpty();
        assertThat(StripeEventRules.faultIn(event("evt_1", "{\"currency\":\"EUR\",\"customer\":null}"))).isEmpty();
    }

    @Test
    @DisplayName("the first value that cannot be stored is named by its path, at any depth")
    void faultsAreNamedByPath() {
        assertThat(StripeEventRules.faultIn(event("evt_1",
                "{\"lines\":{\"data\":[{\"currency\":\"eur\"},{\"currency\":\"zzz\"}]}}")))
                .contains("data.object.lines.data[1].currency is not an ISO-4217 currency code");
        assertThat(StripeEventRules.faultIn(event("evt_1", "{\"currency\":978}")))
                .contains("data.object.currency is not an ISO-4217 currency code");
        assertThat(StripeEventRules.faultIn(event("evt_1", "{\"description\":\"a\\u0000b\"}")))
                .contains("data.object.description contains a NUL character or an unpaired surrogate");
        assertThat(StripeEventRules.faultIn(event("evt_1", "{\"subscription\":{\"id\":\"" + "s".repeat(256) + "\"}}")))
                .contains("data.object.subscription.id is 256 characters, at most 255");
        assertThat(StripeEventRules.faultIn(event("evt_1", "{\"metadata\":{\"conversionEventId\":\"" + "c".repeat(300)
                + "\"}}"))).contains("data.object.metadata.conversionEventId is 300 characters, at most 255");
    }

    @Test
    @DisplayName("an id that cannot be stored is kept escaped and abbreviated, with a digest that tells ids apart")
    void storableIdsAreDeterministicAndDistinct() {
        assertThat(StripeEventRules.storableId("evt_ok")).isEqualTo("evt_ok");
        String a = StripeEventRules.storableId("evt_\u0000" + "a".repeat(300));
        String b = StripeEventRules.storableId("evt_\u0000" + "a".repeat(299) + "b");
        assertThat(a).startsWith("evt_\\u0000aaa").doesNotContain("\u0000").hasSizeLessThan(100).isNotEqualTo(b);
        assertThat(StripeEventRules.storableId("evt_\u0000" + "a".repeat(300))).isEqualTo(a);
        assertThat(StripeEventRules.storableId("evt_\ud800x")).startsWith("evt_\\ud800x…#");
        assertThat(StripeEventRules.storableId("evt_\ud83d\ude00" + "x".repeat(300))).startsWith("evt_\ud83d\ude00x");
    }
}
