package com.acme.pspsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Each fault on an API call does what it says, from a real HTTP client's point of view with a short
 * read timeout (1 s; the simulator holds timed-out answers for 3 s).
 */
class PspSimulatorCallFaultsIntegrationTests {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(1);
    private static RunningSimulator sim;

    @BeforeAll
    static void start() {
        sim = RunningSimulator.start(Map.of());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @BeforeEach
    void reset() {
        sim.reset();
    }

    private static String ref() {
        return "ref-" + UUID.randomUUID();
    }

    private static String deposit(String ref) {
        return """
                {"paymentType":"DEPOSIT","amount":"10.00","currency":"EUR","referenceId":"%s"}""".formatted(ref);
    }

    private HttpResponse<String> create(String ref) throws IOException, InterruptedException {
        return sim.send("POST", "/api/v1/payments", deposit(ref), READ_TIMEOUT);
    }

    @Test
    @DisplayName("timeout after create: the caller times out, and the payment exists by referenceId")
    void timeoutAfterCreate() {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"timeout","referenceId":"%s"}]""".formatted(ref));
        assertThatThrownBy(() -> create(ref)).isInstanceOf(HttpTimeoutException.class);
        assertThat(sim.find(ref).size()).isEqualTo(1);
        assertThat(sim.createCount(ref)).isEqualTo(1);
    }

    @Test
    @DisplayName("5xx after create: the caller sees 500, the payment exists")
    void errorAfterCreate() throws Exception {
        String ref = ref();
        sim.faults("""
                {"operation":"create","fault":"ERROR_AFTER","referenceId":"%s"}""".formatted(ref));
        assertThat(create(ref).statusCode()).isEqualTo(500);
        assertThat(sim.createCount(ref)).isEqualTo(1);
        assertThat(sim.find(ref).size()).isEqualTo(1);
    }

    @Test
    @DisplayName("5xx before create: the caller sees 503 (or the configured status), nothing is created")
    void errorBeforeCreate() throws Exception {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"error-before","referenceId":"%s"},
                 {"operation":"create","fault":"error-before","referenceId":"%s-b","status":502}]""".formatted(ref, ref));
        assertThat(create(ref).statusCode()).isEqualTo(503);
        assertThat(create(ref + "-b").statusCode()).isEqualTo(502);
        assertThat(sim.createCount(ref)).isZero();
        assertThat(sim.find(ref).size()).isZero();
    }

    @Test
    @DisplayName("refuse-replay: a lost create (503, nothing made), then the same referenceId sent again answers 4xx")
    void refuseReplayOnlyRefusesACreateSentAgain() throws Exception {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"refuse-replay","referenceId":"%s","status":422,
                  "errorCode":"DUPLICATE_REFERENCE","times":1},
                 {"operation":"create","fault":"error-before","referenceId":"%s","times":1}]""".formatted(ref, ref));
        assertThat(create(ref).statusCode()).isEqualTo(503);
        HttpResponse<String> again = create(ref);
        assertThat(again.statusCode()).isEqualTo(422);
        assertThat(RunningSimulator.json(again.body()).path("errorCode").asString()).isEqualTo("DUPLICATE_REFERENCE");
        assertThat(sim.createCount(ref)).isZero();
        JsonNode counts = RunningSimulator.json(sim.admin("GET", "/sim/payments?referenceId=" + ref, null).body());
        assertThat(counts.path("createPosts").path(ref).asInt()).isEqualTo(2);

        String first = ref();
        sim.faults("""
                {"operation":"create","fault":"refuse-replay","referenceId":"%s","times":1}""".formatted(first));
        assertThat(create(first).statusCode()).as("a first send neither matches nor spends it").isEqualTo(200);
        assertThat(create(first).statusCode()).isEqualTo(400);
        assertThat(sim.createCount(first)).isEqualTo(1);
    }

    @Test
    @DisplayName("proxy page: 200 text/html, the payment exists")
    void htmlProxyPage() throws Exception {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"html","referenceId":"%s"}]""".formatted(ref));
        HttpResponse<String> response = create(ref);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
        assertThat(response.body()).contains("<html>");
        assertThat(sim.createCount(ref)).isEqualTo(1);
    }

    @Test
    @DisplayName("truncated JSON: 200 application/json that fails to parse, the payment exists")
    void truncatedJson() throws Exception {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"truncated","referenceId":"%s"}]""".formatted(ref));
        HttpResponse<String> response = create(ref);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
        assertThatThrownBy(() -> RunningSimulator.json(response.body())).isInstanceOf(JacksonException.class);
        assertThat(sim.createCount(ref)).isEqualTo(1);
    }

    @Test
    @DisplayName("connection reset: the caller gets an IOException (not a timeout, no status), the payment exists")
    void connectionReset() {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"reset","referenceId":"%s"}]""".formatted(ref));
        assertThatThrownBy(() -> create(ref)).isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);
        assertThat(sim.createCount(ref)).isEqualTo(1);
    }

    @Test
    @DisplayName("latency: the answer comes after delayMs, past a shorter read timeout")
    void latency() throws Exception {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"latency","delayMs":1500,"referenceId":"%s"}]""".formatted(ref));
        assertThatThrownBy(() -> create(ref)).isInstanceOf(HttpTimeoutException.class);
        HttpResponse<String> patient = sim.send("POST", "/api/v1/payments", deposit(ref), Duration.ofSeconds(10));
        assertThat(patient.statusCode()).isEqualTo(200);
    }

    @Test
    @DisplayName("invisible: a created payment is missing from referenceId look-ups for delayMs, then appears")
    void invisibleToLookups() throws Exception {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"invisible","delayMs":1500,"referenceId":"%s"}]""".formatted(ref));
        HttpResponse<String> created = create(ref);
        String id = RunningSimulator.json(created.body()).path("result").path("id").asString();
        assertThat(sim.find(ref).size()).isZero();
        assertThat(sim.payment(id).path("id").asString()).as("GET by id still works").isEqualTo(id);
        await().atMost(Duration.ofSeconds(30)).until(() -> sim.find(ref).size() == 1);
    }

    @Test
    @DisplayName("combined faults act together: reset after create and invisible to look-ups for a while")
    void combinedFaults() {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"reset,invisible","delayMs":1500,"referenceId":"%s"}]""".formatted(ref));
        assertThatThrownBy(() -> create(ref)).isInstanceOf(IOException.class);
        assertThat(sim.createCount(ref)).isEqualTo(1);
        assertThat(sim.find(ref).size()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> sim.find(ref).size() == 1);
    }

    @Test
    @DisplayName("faults on get, find, capture and void")
    void faultsOnOtherOperations() throws Exception {
        String ref = ref();
        String id = RunningSimulator.json(create(ref).body()).path("result").path("id").asString();
        sim.faults("""
                [{"operation":"get","fault":"error-after","referenceId":"%1$s","times":1},
                 {"operation":"find","fault":"html","referenceId":"%1$s","times":1}]""".formatted(ref));
        assertThat(sim.api("GET", "/api/v1/payments/" + id, null).statusCode()).isEqualTo(500);
        assertThat(sim.api("GET", "/api/v1/payments?referenceId.eq=" + ref, null).body()).contains("<html>");

        sim.click(id, "authorize");
        sim.faults("""
                [{"operation":"capture","fault":"error-before","referenceId":"%1$s","times":1}]""".formatted(ref));
        assertThat(sim.api("POST", "/api/v1/payments/" + id + "/capture", null).statusCode()).isEqualTo(503);
        assertThat(sim.payment(id).path("state").asString()).as("not captured").isEqualTo("AUTHORIZED");
        sim.faults("""
                [{"operation":"void","fault":"error-after","referenceId":"%1$s"}]""".formatted(ref));
        assertThat(sim.api("POST", "/api/v1/payments/" + id + "/void", null).statusCode()).isEqualTo(500);
        assertThat(sim.payment(id).path("state").asString()).as("voided anyway").isEqualTo("CANCELLED");
    }

    @Test
    @DisplayName("corrupt-answer: get and find answer a value no booking may take, that many times, then the truth")
    void corruptAnswer() throws Exception {
        String ref = ref();
        String id = RunningSimulator.json(create(ref).body()).path("result").path("id").asString();
        sim.faults("""
                [{"operation":"get","fault":"corrupt-answer","referenceId":"%1$s","field":"currency","value":"EURO","times":2},
                 {"operation":"find","fault":"corrupt-answer","referenceId":"%1$s","field":"amount","value":"-10.00","times":1}]"""
                .formatted(ref));
        for (int i = 0; i < 2; i++) {
            var corrupted = RunningSimulator.json(sim.api("GET", "/api/v1/payments/" + id, null).body()).path("result");
            assertThat(corrupted.path("currency").asString()).isEqualTo("EURO");
            assertThat(corrupted.path("amount").decimalValue()).as("other fields untouched").isEqualByComparingTo("10.00");
        }
        assertThat(sim.payment(id).path("currency").asString()).as("the third get: the truth").isEqualTo("EUR");
        var found = RunningSimulator.json(sim.api("GET", "/api/v1/payments?referenceId.eq=" + ref, null).body())
                .path("result");
        assertThat(found.get(0).path("amount").isNumber()).as("a decimal value is a JSON number").isTrue();
        assertThat(found.get(0).path("amount").decimalValue()).isEqualByComparingTo("-10.00");
        assertThat(sim.find(ref).get(0).path("amount").decimalValue()).isEqualByComparingTo("10.00");
        assertThat(sim.admin("POST", "/sim/faults", """
                [{"operation":"create","fault":"corrupt-answer","field":"currency","value":"EURO"}]""").statusCode())
                .as("only look-ups").isEqualTo(400);
        assertThat(sim.admin("POST", "/sim/faults", """
                [{"operation":"get","fault":"corrupt-answer","field":"currency"}]""").statusCode())
                .as("a value is required").isEqualTo(400);
    }

    @Test
    @DisplayName("times: a rule applies to that many calls, then the calls are normal again; DELETE clears rules")
    void timesAndClear() throws Exception {
        String ref = ref();
        sim.faults("""
                [{"operation":"create","fault":"error-before","referenceId":"%s","times":2}]""".formatted(ref));
        assertThat(create(ref).statusCode()).isEqualTo(503);
        assertThat(create(ref).statusCode()).isEqualTo(503);
        assertThat(create(ref).statusCode()).isEqualTo(200);

        sim.faults("""
                [{"operation":"create","fault":"error-before"}]""");
        assertThat(create(ref()).statusCode()).isEqualTo(503);
        assertThat(sim.admin("DELETE", "/sim/faults", null).statusCode()).isEqualTo(204);
        assertThat(create(ref()).statusCode()).isEqualTo(200);
    }

    @Test
    @DisplayName("decline and settle: the payment is created already final")
    void declineAndSettle() throws Exception {
        String declined = ref();
        String settled = ref();
        sim.faults("""
                [{"operation":"create","fault":"decline","referenceId":"%s","errorCode":"INSUFFICIENT_FUNDS"},
                 {"operation":"create","fault":"settle","referenceId":"%s","state":"AUTHORIZED"}]"""
                .formatted(declined, settled));
        var d = RunningSimulator.json(create(declined).body()).path("result");
        assertThat(d.path("state").asString()).isEqualTo("DECLINED");
        assertThat(d.path("errorCode").asString()).isEqualTo("INSUFFICIENT_FUNDS");
        assertThat(RunningSimulator.json(create(settled).body()).path("result").path("state").asString())
                .isEqualTo("AUTHORIZED");
    }

    @Test
    @DisplayName("rules apply in order, first match first: a sink error, then a reset, then normal again")
    void sinkFaults() {
        sim.faults("""
                [{"operation":"sink","fault":"error-before","status":500,"times":1},
                 {"operation":"sink","fault":"reset","times":1}]""");
        assertThat(sim.call("POST", "/sink/notify", "{\"n\":1}", null).statusCode()).isEqualTo(500);
        assertThatThrownBy(() -> sim.send("POST", "/sink/notify", "{\"n\":2}", READ_TIMEOUT))
                .isInstanceOf(IOException.class).isNotInstanceOf(HttpTimeoutException.class);
        assertThat(sim.call("POST", "/sink/notify", "{\"n\":3}", null).statusCode()).isEqualTo(200);
        var received = RunningSimulator.json(sim.admin("GET", "/sim/sink", null).body());
        assertThat(received.size()).isEqualTo(1);
        assertThat(received.get(0).path("body").asString()).isEqualTo("{\"n\":3}");
    }

    @Test
    void invalidFaultRulesAreRefused() {
        assertThat(sim.admin("POST", "/sim/faults", "[{\"operation\":\"create\",\"fault\":\"nonsense\"}]").statusCode())
                .isEqualTo(400);
        assertThat(sim.admin("POST", "/sim/faults", "[{\"operation\":\"get\",\"fault\":\"webhook-twice\"}]")
                .statusCode()).isEqualTo(400);
        assertThat(sim.admin("POST", "/sim/faults", "[{\"operation\":\"create\",\"fault\":\"latency\",\"delay\":5}]")
                .statusCode()).as("a misspelt field is refused, not ignored").isEqualTo(400);
        assertThat(sim.admin("GET", "/sim/faults", null).body()).isEqualTo("[]");
    }

    @Test
    @DisplayName("per-run faults from properties, restored by POST /sim/reset")
    void faultsConfiguredForTheRun() throws Exception {
        try (RunningSimulator configured = RunningSimulator.start(Map.of(
                "pspsim.faults[0].operation", "create",
                "pspsim.faults[0].fault", "error-before",
                "pspsim.faults[0].referenceId", "always-failing"))) {
            String body = deposit("always-failing");
            assertThat(configured.send("POST", "/api/v1/payments", body, READ_TIMEOUT).statusCode()).isEqualTo(503);
            configured.reset();
            assertThat(configured.send("POST", "/api/v1/payments", body, READ_TIMEOUT).statusCode()).isEqualTo(503);
            assertThat(configured.send("POST", "/api/v1/payments", deposit(ref()), READ_TIMEOUT).statusCode())
                    .isEqualTo(200);
        }
    }
}
