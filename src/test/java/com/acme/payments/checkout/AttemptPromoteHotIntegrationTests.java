package com.acme.payments.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.OffsetDateTime;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.acme.payments.support.Checkouts;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * The webhook promotes a READY attempt again (same state, same payment, no redirect). Such an update
 * changes no indexed column, so it is HOT: no new entry in any of the table's seven indexes. It only is while it
 * leaves updated_at alone, which psp_attempt_unresolved keys on. Counted by pg_stat_xact_user_tables, which shows
 * the current transaction's own writes at once.
 */
class AttemptPromoteHotIntegrationTests extends IntegrationTest {

    @Autowired
    AttemptStore attempts;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    PlatformTransactionManager transactions;

    @Test
    @DisplayName("promoting a READY attempt again without news is a HOT update and keeps updated_at; news moves it")
    void repeatedPromoteIsHot() {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder("11.00", "EUR").orderRef();
        String paymentId = "pay-" + orderRef;
        Checkouts.checkOut(shop, psp, jdbc, orderRef, paymentId, "PENDING", "11.00");
        long id = jdbc.sql("SELECT a.id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref")
                .param("ref", orderRef).query(Long.class).single();
        OffsetDateTime before = updatedAt(id);

        long[] writes = new TransactionTemplate(transactions).execute(tx -> {
            long[] start = updates();
            assertThat(attempts.promoteReady(id, paymentId, null)).get().extracting(Attempt::state)
                    .isEqualTo(AttemptState.READY);
            long[] end = updates();
            return new long[] { end[0] - start[0], end[1] - start[1] };
        });
        assertThat(writes).as("updates, HOT updates of psp_attempt").containsExactly(1, 1);
        assertThat(updatedAt(id)).isEqualTo(before);

        assertThat(attempts.promoteReady(id, paymentId, "https://psp.test/pay/" + orderRef)).get()
                .extracting(Attempt::redirectUrl).isEqualTo("https://psp.test/pay/" + orderRef);
        assertThat(updatedAt(id)).isAfter(before);
    }

    private long[] updates() {
        return jdbc.sql("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = 'psp_attempt'")
                .query((rs, n) -> new long[] { rs.getLong(1), rs.getLong(2) }).single();
    }

    private OffsetDateTime updatedAt(long id) {
        return jdbc.sql("SELECT updated_at FROM psp_attempt WHERE id = :id").param("id", id).query(OffsetDateTime.class)
                .single();
    }
}
