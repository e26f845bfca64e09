package com.acme.payments.billing;

import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** Billing users and their credit balance. Users are created from event metadata ({@code userId}). */
@Repository
@Transactional(propagation = Propagation.MANDATORY)
class UserStore {

    private static final String ENSURE = """
            INSERT INTO billing_user (user_id) VALUES (:userId)
            ON CONFLICT (user_id) DO NOTHING
            """;
    private static final String ADD_CREDITS = """
            UPDATE billing_user SET credits = credits + :delta, updated_at = now()
            WHERE user_id = :userId
            """;
    private static final String FIND = """
            SELECT user_id, credits FROM billing_user WHERE user_id = :userId
            """;

    private final JdbcClient jdbc;

    UserStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void ensure(String userId) {
        jdbc.sql(ENSURE).param("userId", userId).update();
    }

    void addCredits(String userId, long delta) {
        if (delta == 0) {
            return;
        }
        int rows = jdbc.sql(ADD_CREDITS).param("userId", userId).param("delta", delta).update();
        if (rows != 1) {
            throw new IllegalStateException("credits of user " + userId + " updated " + rows + " rows");
        }
    }

    @Transactional(readOnly = true, propagation = Propagation.REQUIRED)
    Optional<User> find(String userId) {
        return jdbc.sql(FIND).param("userId", userId)
                .query((rs, n) -> new User(rs.getString("user_id"), rs.getLong("credits")))
                .optional();
    }

    record User(String userId, long credits) {
    }
}
