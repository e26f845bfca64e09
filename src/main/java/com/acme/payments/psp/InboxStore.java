package com.acme.payments.psp;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import tools.jackson.databind.json.JsonMapper;

/**
 * Owns {@code psp_webhook_event}, the inbox. A receipt stays open ({@code processed_at} NULL) until
 * its state was applied or found already past; the replay job leases what stays open too long.
 */
@Repository
@Transactional
class InboxStore {

    /**
     * A row back means this delivery owns the receipt (new, or still open from an earlier delivery);
     * none means it was processed already: a duplicate.
     */
    private static final String UPSERT = """
            INSERT INTO psp_webhook_event (payment_id, state, payment_type, reference_id, payload)
            VALUES (:paymentId, :state, :paymentType, :referenceId, CAST(:payload AS jsonb))
            ON CONFLICT (payment_id, state) DO UPDATE SET received_at = now()
             WHERE psp_webhook_event.processed_at IS NULL
            RETURNING id
            """;
    private static final String CLOSE = """
            UPDATE psp_webhook_event SET processed_at = now(), processed_reason = :reason
             WHERE id = :id AND processed_at IS NULL
            """;
    /** Closes a stale receipt the replay job started from, keeping a verdict it already has. */
    private static final String SUPERSEDE = """
            UPDATE psp_webhook_event
               SET processed_at = coalesce(processed_at, now()),
                   processed_reason = coalesce(processed_reason, 'superseded')
             WHERE id = :id
            """;

    private final JdbcClient jdbc;
    private final JsonMapper json;

    InboxStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    Optional<Long> upsert(PspPayment payment) {
        return jdbc.sql(UPSERT)
                .param("paymentId", payment.id())
                .param("state", payment.state())
                .param("paymentType", payment.paymentType())
                .param("referenceId", payment.referenceId())
                .param("payload", json.writeValueAsString(receipt(payment)))
                .query(Long.class).optional();
    }

    void close(long id, String reason) {
        int rows = jdbc.sql(CLOSE).param("id", id).param("reason", reason).update();
        if (rows != 1) {
            throw new IllegalStateException("inbox receipt " + id + " was closed concurrently");
        }
    }

    void supersede(long id) {
        jdbc.sql(SUPERSEDE).param("id", id).update();
    }

    /** What we keep of a receipt: the payment's own fields, never the customer block. */
    private static Map<String, Object> receipt(PspPayment payment) {
        var fields = new java.util.LinkedHashMap<String, Object>();
        fields.put("id", payment.id());
        fields.put("referenceId", payment.referenceId());
        fields.put("paymentType", payment.paymentType());
        fields.put("state", payment.state());
        fields.put("amount", payment.amount() == null ? null : payment.amount().toPlainString());
        fields.put("currency", payment.currency());
        fields.put("parentPaymentId", payment.parentPaymentId());
        fields.put("errorCode", payment.errorCode());
        return fields;
    }

}
