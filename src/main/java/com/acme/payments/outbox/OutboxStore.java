package com.acme.payments.outbox;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import tools.jackson.databind.json.JsonMapper;

/** Writes outbox rows. Always inside the caller's business transaction, never on its own. */
@Repository
@Transactional(propagation = Propagation.MANDATORY)
public class OutboxStore {

    private static final String INSERT = """
            INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, trace_parent)
            VALUES (:kind, :aggregateType, :aggregateId, :idempotencyKey, CAST(:payload AS jsonb), :traceParent)
            """;

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final DeliveryTrace trace;

    OutboxStore(JdbcClient jdbc, JsonMapper json, DeliveryTrace trace) {
        this.jdbc = jdbc;
        this.json = json;
        this.trace = trace;
    }

    /** Adds the effect to the current transaction; it is delivered only if that transaction commits. */
    public void enqueue(OutboxEntry entry) {
        int rows = jdbc.sql(INSERT)
                .param("kind", entry.kind())
                .param("aggregateType", entry.aggregateType())
                .param("aggregateId", entry.aggregateId())
                .param("idempotencyKey", entry.idempotencyKey())
                .param("payload", json.writeValueAsString(entry.payload()))
                // the writer's trace, continued by the relay when it delivers (DeliveryTrace)
                .param("traceParent", trace.current())
                .update();
        if (rows != 1) {
            throw new IllegalStateException("outbox insert wrote " + rows + " rows");
        }
    }
}
