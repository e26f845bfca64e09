package com.acme.payments.common.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Owns {@code operator_action}: one row per operator action (refund, capture, void, abandon, redrive,
 * sync, duplicate-charge refund), written when the action is asked for — so an action that then fails
 * is still on record — and joining the caller's transaction when there is one.
 */
@Repository
@Transactional
public class OperatorActionStore {

    private static final int MAX_REASON = 500;

    private static final String INSERT = """
            INSERT INTO operator_action (actor, action, target, reason) VALUES (:actor, :action, :target, :reason)
            """;
    private static final String FOR_TARGET = """
            SELECT actor, action, target, reason, at FROM operator_action WHERE target = :target ORDER BY id
            """;
    private static final String LATEST = """
            SELECT actor, action, target, reason, at FROM operator_action ORDER BY id DESC LIMIT :limit
            """;

    private final JdbcClient jdbc;

    OperatorActionStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** {@code target} names the resource, e.g. {@code order:ord-1}, {@code refund:rfd_…}, {@code outbox:42}. */
    public void record(String actor, String action, String target, String reason) {
        int rows = jdbc.sql(INSERT).param("actor", actor).param("action", action).param("target", target)
                .param("reason", reason == null || reason.length() <= MAX_REASON ? reason
                        : reason.substring(0, MAX_REASON))
                .update();
        if (rows != 1) {
            throw new IllegalStateException("operator action insert wrote " + rows + " rows");
        }
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
                rs.getString("reason"), rs.getTimestamp("at").toInstant());
    }

    /** One recorded action. */
    public record Action(String actor, String action, String target, String reason, Instant at) {
    }
}
