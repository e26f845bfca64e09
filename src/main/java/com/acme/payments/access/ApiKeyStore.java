package com.acme.payments.access;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.web.Scope;
import com.acme.payments.sweep.Rows;

/**
 * Owns {@code api_key}: the keys issued at run time, by the SHA-256 of the key (the key itself is never
 * stored). Revoking is once: a second revoke leaves the first time and actor. The last use only moves forward.
 */
@Repository
@Transactional
class ApiKeyStore {

    private static final String INSERT = """
            INSERT INTO api_key (name, scopes, key_hash, created_by) VALUES (:name, string_to_array(:scopes, ','), :hash, :createdBy)
            RETURNING id, name, scopes, created_at, last_used_at, revoked_at
            """;
    private static final String ALL = """
            SELECT id, name, scopes, created_at, last_used_at, revoked_at FROM api_key ORDER BY id
            """;
    private static final String FIND = """
            SELECT id, name, scopes, created_at, last_used_at, revoked_at FROM api_key WHERE id = :id
            """;
    private static final String REVOKE = """
            UPDATE api_key SET revoked_at = now(), revoked_by = :by WHERE id = :id AND revoked_at IS NULL
            """;
    private static final String ACTIVE = """
            SELECT id, name, scopes, key_hash FROM api_key WHERE revoked_at IS NULL
            """;
    private static final String TOUCH = """
            UPDATE api_key SET last_used_at = :at WHERE id = :id AND (last_used_at IS NULL OR last_used_at < :at)
            """;

    private final JdbcClient jdbc;

    ApiKeyStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    ApiKey insert(String name, Set<Scope> scopes, byte[] keyHash, String createdBy) {
        return jdbc.sql(INSERT).param("name", name).param("scopes", wireNames(scopes)).param("hash", keyHash)
                .param("createdBy", createdBy).query(ApiKeyStore::map).single();
    }

    @Transactional(readOnly = true)
    List<ApiKey> all() {
        return jdbc.sql(ALL).query(ApiKeyStore::map).list();
    }

    @Transactional(readOnly = true)
    Optional<ApiKey> find(long id) {
        return jdbc.sql(FIND).param("id", id).query(ApiKeyStore::map).optional();
    }

    /** False when the key was already revoked (the first revocation stands). */
    boolean revoke(long id, String by) {
        return Rows.atMostOne(jdbc.sql(REVOKE).param("id", id).param("by", by).update(), "api_key");
    }

    /** The keys not revoked, with their hashes: what every request is checked against ({@link IssuedKeys}). */
    @Transactional(readOnly = true)
    List<ActiveKey> active() {
        return jdbc.sql(ACTIVE).query((rs, row) -> new ActiveKey(rs.getLong("id"), rs.getString("name"),
                scopes(rs.getArray("scopes")), rs.getBytes("key_hash"))).list();
    }

    /** False when the stored last use is already as late (another instance flushed a later one). */
    boolean touch(long id, Instant at) {
        return Rows.atMostOne(jdbc.sql(TOUCH).param("id", id).param("at", Timestamp.from(at)).update(), "api_key");
    }

    /** Comma-separated, for {@code string_to_array}: a wire name holds no comma. */
    private static String wireNames(Set<Scope> scopes) {
        return String.join(",", scopes.stream().sorted().map(Scope::wireName).toList());
    }

    private static ApiKey map(ResultSet rs, int row) throws SQLException {
        return new ApiKey(rs.getLong("id"), rs.getString("name"), scopes(rs.getArray("scopes")),
                rs.getTimestamp("created_at").toInstant(), instant(rs.getTimestamp("last_used_at")),
                instant(rs.getTimestamp("revoked_at")));
    }

    private static Set<Scope> scopes(Array array) throws SQLException {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (Object name : (Object[]) array.getArray()) {
            Scope.fromWireName((String) name).ifPresent(scopes::add); // a scope this version does not know grants nothing
        }
        return scopes;
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    /** A key as listed: never the key, never its hash. */
    record ApiKey(long id, String name, Set<Scope> scopes, Instant createdAt, Instant lastUsedAt, Instant revokedAt) {
    }

    /** A key requests may use: its id (for its last use), name, scopes and hash. */
    record ActiveKey(long id, String name, Set<Scope> scopes, byte[] keyHash) {

        @Override
        public String toString() {
            return "ActiveKey[id=" + id + ", name=" + name + ", scopes=" + scopes + "]";
        }
    }
}
