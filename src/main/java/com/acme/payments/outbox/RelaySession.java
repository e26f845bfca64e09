package com.acme.payments.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This relay's proof of life in the database: a connection of its own holding the session-level
 * advisory lock {@code (31012, holder)}. Dedup keys this relay takes carry its {@code holder} id;
 * another relay may take an expired key over only when it can take this lock, that is when this
 * relay's session is gone (the process died, or the server or network ended the session). A relay that
 * is merely slow keeps its keys however long its call or its "sent" write takes, so it is never doubled.
 * <p>
 * Not a {@code *Store}: a session lock must outlive every transaction, so this holds a raw connection
 * (one per instance, taken from the pool for the relay's lifetime) instead of running in one.
 */
final class RelaySession implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RelaySession.class);

    /** The advisory lock namespace of relay sessions (first key of the two-key form). */
    static final int LOCK_NAMESPACE = 31012;

    private static final String NEXT_HOLDER = "SELECT nextval('outbox_relay_holder_seq')::int";
    /** Try, not wait: a taker holds it for one claim transaction at most, the next turn tries again. */
    private static final String LOCK = "SELECT pg_try_advisory_lock(?, ?)";
    private static final String UNLOCK = "SELECT pg_advisory_unlock(?, ?)";

    private final DataSource dataSource;
    private Connection connection;
    private int holder;

    RelaySession(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * The holder id, after making sure the lock is held (reconnecting and locking again under the same
     * id after a lost session). Throws when the database cannot be reached: no claim without it.
     */
    synchronized int hold() throws SQLException {
        // 10 s: on a starved machine a slow answer must not make a living session look lost (closing
        // it would free the lock)
        if (connection != null && connection.isValid(10)) {
            return holder;
        }
        if (connection != null) {
            log.warn("outbox relay session {} was lost; locking it again", holder);
            closeQuietly(true);
        }
        Connection fresh = dataSource.getConnection();
        try {
            fresh.setAutoCommit(true);
            if (holder == 0) {
                holder = single(fresh, NEXT_HOLDER, null);
            }
            if (single(fresh, LOCK, holder) != 1) {
                throw new SQLException("relay session lock " + holder + " is held by another session");
            }
        } catch (SQLException | RuntimeException e) {
            fresh.close();
            throw e;
        }
        connection = fresh;
        return holder;
    }

    /** Lets go of the lock (graceful stop): keys still 'sending' become takeable once their lease ends. */
    @Override
    public synchronized void close() {
        if (connection == null) {
            return;
        }
        try {
            // The connection goes back to the pool: the session lock must not go with it.
            single(connection, UNLOCK, holder);
            closeQuietly(false);
        } catch (SQLException e) {
            log.info("outbox relay session {} not unlocked ({}); closing it", holder, e.getClass().getSimpleName());
            closeQuietly(true);
        }
    }

    /**
     * {@code physically}: end the session itself, not only hand the connection back to the pool, where
     * a session still holding the lock would keep it for whoever borrows the connection next.
     */
    private void closeQuietly(boolean physically) {
        try {
            if (physically) {
                connection.unwrap(Connection.class).close();
            }
        } catch (SQLException ignored) {
            // gone already
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // gone already
        }
        connection = null;
    }

    private static int single(Connection c, String sql, Integer holder) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            if (holder != null) {
                statement.setInt(1, LOCK_NAMESPACE);
                statement.setInt(2, holder);
            }
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                Object value = rs.getObject(1);
                return value instanceof Boolean b ? (b ? 1 : 0) : ((Number) value).intValue();
            }
        }
    }
}
