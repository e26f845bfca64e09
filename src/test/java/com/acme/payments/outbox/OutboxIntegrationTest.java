package com.acme.payments.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PspStub;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

/**
 * Base for the outbox tests: the three sinks point at the shared WireMock under {@code /sinks/...};
 * every test works on rows whose source ids start with its own random prefix, and stubs sink answers
 * for that prefix only (WireMock matches on the {@code Idempotency-Key} header).
 */
abstract class OutboxIntegrationTest extends IntegrationTest {

    static final int MAX_ATTEMPTS = 3;
    /** Only the notify sink signs in these tests, so both a signed and an unsigned sink are exercised. */
    static final String NOTIFY_SECRET = "test-notify-sink-secret";
    /** The conversion sink's secret is mid-roll: new first, old second (CONVERSION_SINK_SECRET="new,old"). */
    static final String CONVERSION_NEW_SECRET = "test-conversion-new";
    static final String CONVERSION_OLD_SECRET = "test-conversion-old";

    @Autowired
    protected OutboxStore outbox;
    @Autowired
    protected OutboxRelay relay;
    @Autowired
    protected JdbcClient jdbc;
    @Autowired
    protected TransactionTemplate transactions;

    /** This test's source-id prefix; keys are {@code <prefix><n>:<kind>}. */
    protected String prefix;

    @DynamicPropertySource
    static void outboxSinks(DynamicPropertyRegistry registry) {
        registry.add("payments.outbox.sinks.notify-url", () -> PspStub.baseUrl() + "/sinks/notify");
        registry.add("payments.outbox.sinks.conversion-url", () -> PspStub.baseUrl() + "/sinks/conversion");
        registry.add("payments.outbox.sinks.fulfilment-url", () -> PspStub.baseUrl() + "/sinks/fulfilment");
        registry.add("payments.outbox.max-attempts", () -> MAX_ATTEMPTS);
        registry.add("payments.outbox.sinks.notify-secret", () -> NOTIFY_SECRET);
        registry.add("payments.outbox.sinks.conversion-secret", () -> CONVERSION_NEW_SECRET + "," + CONVERSION_OLD_SECRET);
    }

    @BeforeEach
    void sinksAcceptByDefault() {
        prefix = "evt_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "_";
        psp.stubFor(post(urlPathMatching("/sinks/.*")).atPriority(10).willReturn(aResponse().withStatus(200)));
    }

    static OutboxEntry notice(String sourceId, String subscriptionId) {
        return new OutboxEntry("renewal_notice", "subscription", subscriptionId, sourceId,
                Map.of("kind", "renewal_notice", "userId", "user_1", "subscriptionId", subscriptionId));
    }

    /** Commits the entries in one business transaction, as the features do. */
    protected void enqueue(OutboxEntry... entries) {
        transactions.executeWithoutResult(tx -> {
            for (OutboxEntry entry : entries) {
                outbox.enqueue(entry);
            }
        });
    }

    /** Sink requests carrying this test's keys, in the order the sink logged them. */
    protected List<LoggedRequest> sinkRequests() {
        return psp.findAll(postRequestedFor(urlPathMatching("/sinks/.*"))
                .withHeader(SinkClient.IDEMPOTENCY_KEY, matching(java.util.regex.Pattern.quote(prefix) + ".*")));
    }

    protected List<String> sentKeys() {
        return sinkRequests().stream().map(r -> r.getHeader(SinkClient.IDEMPOTENCY_KEY)).toList();
    }

    /** Time control: this test's pending rows that wait for a retry become due now. */
    protected void makeDue() {
        jdbc.sql("""
                UPDATE outbox SET next_attempt_at = now()
                 WHERE idempotency_key LIKE :prefix AND state = 'pending' AND lease_until IS NULL
                """).param("prefix", prefix + "%").update();
    }

    protected long idOf(String idempotencyKey) {
        return jdbc.sql("SELECT id FROM outbox WHERE idempotency_key = :key ORDER BY id LIMIT 1")
                .param("key", idempotencyKey).query(Long.class).single();
    }

    protected Map<String, Object> row(long id) {
        return jdbc.sql("SELECT * FROM outbox WHERE id = :id").param("id", id).query().singleRow();
    }

    /** state -> count over this test's rows. */
    protected Map<String, Long> statesOfMyRows() {
        Map<String, Long> states = new java.util.TreeMap<>();
        jdbc.sql("SELECT state, count(*) AS n FROM outbox WHERE idempotency_key LIKE :prefix GROUP BY state")
                .param("prefix", prefix + "%")
                .query((rs, n) -> states.put(rs.getString("state"), rs.getLong("n"))).list();
        return states;
    }
}
