package com.acme.payments.operator;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.sweep.Rows;

/**
 * Owns {@code operator_action}: one row per operator action (refund, capture, void, abandon, redrive,
 * sync, duplicate-charge refund), written when the action is asked for — so an action that then fails
 * is still on record — and joining the caller's transaction when there is one; its outcome is added once
 * the answer is known ({@link OperatorAudit}).
 */
@Repository
@Transactional
public class OperatorActionStore {

    private static final int MAX_REASON = 500;

    private static final String INSERT = """
            INSERT INTO operator_action (actor, action, target, reason) VALUES (:actor, :action, :target, :reason)
            RETURNING id
            """;
    /** Once: the first answer recorded for an action is its outcome. */
    private static final String SETTLE = """
            UPDATE operator_action SET outcome = :outcome, status = :status WHERE id = :id AND outcome IS NULL
            """;
    private static final String FOR_TARGET = """
            SELECT actor, action, target, reason, at, outcome, status FROM operator_action WHERE target = :target ORDER BY id
            """;
    private static final String LATEST = """
            SELECT actor, action, target, reason, at, outcome, status FROM operator_action ORDER BY id DESC LIMIT :limit
            """;

    private final JdbcClient jdbc;

    OperatorActionStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * {@code target} names the resource, e.g. {@code order:ord-1}, {@code refund:rfd_…}, {@code outbox:42}.
     * Returns the row's id, for {@link #settle}.
     */
    long record(String actor, String action, String target, String reason) {
        return jdbc.sql(INSERT).param("actor", actor).param("action", action).param("target", target)
                .param("reason", reason == null || reason.length() <= MAX_REASON ? reason
                        : reason.substring(0, MAX_REASON))
                .query(Long.class).single();
    }

    /** False when the action already has an outcome (settled once; a second answer changes nothing). */
    boolean settle(long id, Outcome outcome, int status) {
        return Rows.atMostOne(jdbc.sql(SETTLE).param("id", id).param("outcome", outcome.label())
                .param("status", status).update(), "operator_action");
    }

    @Transactional(readOnly = true)
    public List<Action> forTarget(String target) {
        return jdbc.sql(FOR_TARGET).param("target", target).query(OperatorActionStore::map).list();
    }

    @Transactional(readOnly = true)
    public List<Action> latest(int limit) {
        return jdbc.sql(LATEST).param("limit", limit).query(OperatorActionStore::map).list();
    }

    private static Action map(ResultSet rs, int row) throws SQLException {
        return new Action(rs.getString("actor"), rs.getString("action"), rs.getString("target"),
                rs.getString("reason"), rs.getTimestamp("at").toInstant(), rs.getString("outcome"),
                rs.getObject("status", Integer.class));
    }

    /**
     * One recorded action. {@code outcome} and {@code status} are null when no answer was recorded (the
     * instance stopped mid-action, or the action predates V323).
     */
    public record Action(String actor, String action, String target, String reason, Instant at, String outcome,
            Integer status) {
    }
}
