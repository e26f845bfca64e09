package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.acme.payments.chaos.Invariants.Check;

/** The Stripe invariants: from the billing tables and the idempotency store, against what Stripe had acknowledged. */
final class StripeInvariants {

    private StripeInvariants() {
    }

    static void check(List<StripeWorkload.Acked> acked, List<String> unacknowledged, List<Check> checks,
            Map<String, Long> facts) throws SQLException {
        Map<String, Integer> perPeriod = new HashMap<>();
        Map<String, Integer> perEvent = new HashMap<>();
        Map<String, Long> grantedCredits = new HashMap<>();
        Map<String, Long> credits = new HashMap<>();
        long processing;
        try (Connection c = TestDatabaseName.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("""
                    SELECT g.subscription_id, coalesce(g.period_start::text, 'checkout'), g.event_id, g.credits,
                           sub.user_id
                      FROM billing_grant g LEFT JOIN billing_subscription sub USING (subscription_id)
                     WHERE g.subscription_id LIKE 'sub_chaos_%'""")) {
                while (rs.next()) {
                    perPeriod.merge(rs.getString(1) + "@" + rs.getString(2), 1, Integer::sum);
                    if (rs.getString(3) != null) {
                        perEvent.merge(rs.getString(3), 1, Integer::sum);
                    }
                    grantedCredits.merge(String.valueOf(rs.getString(5)), rs.getLong(4), Long::sum);
                }
            }
            try (ResultSet rs = s.executeQuery(
                    "SELECT user_id, credits FROM billing_user WHERE user_id LIKE 'user_chaos_%'")) {
                while (rs.next()) {
                    credits.put(rs.getString(1), rs.getLong(2));
                }
            }
            try (ResultSet rs = s.executeQuery(
                    "SELECT count(*) FROM processed_webhook_events WHERE state = 'processing'")) {
                rs.next();
                processing = rs.getLong(1);
            }
        }

        Check once = new Check("stripe: every event granted at most once per period");
        perPeriod.forEach((period, n) -> once.check(n == 1, period + " granted " + n + " times"));
        perEvent.forEach((event, n) -> once.check(n == 1, event + " granted " + n + " times"));
        checks.add(once);

        Check exactly = new Check("stripe: every acknowledged paid cycle/checkout granted exactly once");
        for (StripeWorkload.Acked a : acked) {
            String period = a.subscriptionId() + "@" + (a.periodStart() == null ? "checkout" : a.periodStart());
            exactly.check(perPeriod.getOrDefault(period, 0) == 1,
                    a.eventId() + " acknowledged, " + period + " granted " + perPeriod.getOrDefault(period, 0));
        }
        unacknowledged.forEach(e -> exactly.check(false, e + " never acknowledged with a 2xx"));
        checks.add(exactly);

        Check balance = new Check("stripe: each user's credits equal the credits of their grants");
        credits.forEach((user, balanceNow) -> balance.check(balanceNow.longValue() == grantedCredits.getOrDefault(user, 0L).longValue(),
                user + " has " + balanceNow + " credits, grants " + grantedCredits.get(user)));
        checks.add(balance);

        Check claims = new Check("settled: stripe: no processing claim left behind");
        claims.checked = acked.size();
        if (processing > 0) {
            claims.violations.add(processing + " claims still processing");
        }
        checks.add(claims);

        facts.put("stripe events acknowledged", (long) acked.size());
        facts.put("stripe grants", (long) perPeriod.size());
    }
}
