package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;

/**
 * The invariants, checked from the database and from the simulator's own records (what the PSP and the
 * sinks really saw), never from the service's answers.
 */
final class Invariants {

    /**
     * One invariant: how many things it looked at, which broke it (a few shown). It holds only when it looked
     * at {@code minimum} cases at least (one unless said): an invariant that checked nothing proved nothing.
     */
    static final class Check {
        final String name;
        final long minimum;
        long checked;
        final List<String> violations = new ArrayList<>();

        Check(String name) {
            this(name, 1);
        }

        Check(String name, long minimum) {
            this.name = name;
            this.minimum = minimum;
        }

        boolean holds() {
            return violations.isEmpty() && checked >= minimum;
        }

        void check(boolean ok, String what) {
            checked++;
            if (!ok) {
                violations.add(what);
            }
        }

        @Override
        public String toString() {
            return "%-70s checked %6d  violations %d%s%s".formatted(name, checked, violations.size(),
                    checked < minimum ? "  TOO FEW CASES (at least " + minimum + ")" : "",
                    violations.isEmpty() ? "" : "  e.g. " + violations.subList(0, Math.min(5, violations.size())));
        }
    }

    record Result(List<Check> checks, Map<String, Long> facts) {

        boolean ok() {
            return checks.stream().allMatch(Check::holds);
        }

        /** The checks that only settle once the jobs have caught up. */
        long unsettled() {
            return checks.stream().filter(c -> c.name.startsWith("settled:")).mapToLong(c -> c.violations.size())
                    .sum();
        }
    }

    record OrderRow(long id, String ref, String status, BigDecimal paid, BigDecimal refunded, String paymentId,
            String detail) {
    }

    record AttemptRow(long id, long orderId, String reference, String state, String detail) {
    }

    /** {@code origin}: {@code api}, or {@code external} for a refund made at the PSP that the service booked. */
    record RefundRow(long orderId, String key, String reference, BigDecimal amount, String state, String origin) {

        /** A second charge's refund: no caller key, and not one made elsewhere. */
        boolean secondCharge() {
            return key == null && !"external".equals(origin);
        }
    }

    private Invariants() {
    }

    /** Our side after the run: the rows the invariants of either surface read. */
    record Db(Map<Long, OrderRow> orders, List<AttemptRow> attempts, List<RefundRow> refunds,
            List<String> openOperations, long operationCount, Map<String, String> outbox,
            Map<String, Integer> failedCalls, long unprocessedReceipts) {

        static Db read() throws SQLException {
            Map<Long, OrderRow> orders = new TreeMap<>();
            List<AttemptRow> attempts = new ArrayList<>();
            List<RefundRow> refunds = new ArrayList<>();
            List<String> openOperations = new ArrayList<>();
            Map<String, String> outbox = new HashMap<>();
            Map<String, Integer> failedCalls = new HashMap<>();
            long operationCount;
            long unprocessedReceipts;
            try (Connection c = TestDatabaseName.connect(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("""
                        SELECT id, order_ref, status, paid_amount, refunded_amount, psp_payment_id,
                               concat_ws('/', id, psp_payment_id, to_char(updated_at, 'HH24:MI:SS.MS'),
                                         to_char(last_polled_at, 'HH24:MI:SS.MS')) FROM orders""")) {
                    while (rs.next()) {
                        orders.put(rs.getLong(1), new OrderRow(rs.getLong(1), rs.getString(2), rs.getString(3),
                                rs.getBigDecimal(4), rs.getBigDecimal(5), rs.getString(6), rs.getString(7)));
                    }
                }
                try (ResultSet rs = s.executeQuery("""
                        SELECT id, order_id, reference_id, state, concat_ws('/', psp_payment_id, failure_reason, error_code,
                               lease_version, to_char(updated_at, 'HH24:MI:SS.MS')) FROM psp_attempt ORDER BY id""")) {
                    while (rs.next()) {
                        attempts.add(new AttemptRow(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                                rs.getString(5)));
                    }
                }
                try (ResultSet rs = s.executeQuery(
                        "SELECT order_id, refund_key, reference_id, amount, state, origin FROM psp_refund_attempt")) {
                    while (rs.next()) {
                        refunds.add(new RefundRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getBigDecimal(4),
                                rs.getString(5), rs.getString(6)));
                    }
                }
                try (ResultSet rs = s.executeQuery("""
                        SELECT kind || ' ' || state || ' ' || psp_payment_id FROM psp_payment_operation
                         WHERE state IN ('IN_FLIGHT', 'UNKNOWN')""")) {
                    while (rs.next()) {
                        openOperations.add(rs.getString(1));
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM psp_payment_operation")) {
                    rs.next();
                    operationCount = rs.getLong(1);
                }
                try (ResultSet rs = s.executeQuery("SELECT idempotency_key, state, attempts FROM outbox")) {
                    while (rs.next()) {
                        failedCalls.merge(rs.getString(1), rs.getInt(3), Integer::sum);
                        outbox.merge(rs.getString(1), rs.getString(2),
                                (a, b) -> a.equals("delivered") && b.equals("delivered") ? a : a + "+" + b);
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM psp_webhook_event WHERE processed_at IS NULL")) {
                    rs.next();
                    unprocessedReceipts = rs.getLong(1);
                }
            }
            return new Db(orders, attempts, refunds, openOperations, operationCount, outbox, failedCalls,
                    unprocessedReceipts);
        }
    }

    static Result check(ChaosSimulator sim, List<String> downgrades, List<java.time.Instant> kills,
            StripeWorkload stripe, ExitsWorkload exits, ServiceClient client) throws SQLException {
        // the simulator first: anything the database shows afterwards was caused by what it had seen by then
        java.time.Instant seen = java.time.Instant.now(); // what the PSP's look-ups showed by then
        JsonNode simPayments = sim.payments();
        JsonNode sink = sim.sink();
        JsonNode webhooks = sim.webhooks();
        Map<String, JsonNode> byReference = new HashMap<>();
        Map<String, List<JsonNode>> allByReference = new HashMap<>();
        for (JsonNode p : simPayments.path("payments")) {
            byReference.put(p.path("referenceId").asString(), p);
            allByReference.computeIfAbsent(p.path("referenceId").asString(), k -> new ArrayList<>()).add(p);
        }
        JsonNode counts = simPayments.path("createCounts");

        Db db = Db.read();
        Map<Long, OrderRow> orders = db.orders();
        List<AttemptRow> attempts = db.attempts();
        List<RefundRow> refunds = db.refunds();

        List<Check> checks = new ArrayList<>();
        Map<String, Long> facts = new TreeMap<>();

        Check onePayment = new Check("one PSP payment per checkout reference (simulator create counts)");
        for (AttemptRow a : attempts) {
            int created = counts.path(a.reference()).asInt(0);
            onePayment.check(created <= 1, a.reference() + " created " + created);
        }
        checks.add(onePayment);

        Check oneLive = new Check("per order at most one non-failed PSP payment (second charges flagged apart)");
        Map<Long, Integer> live = new HashMap<>();
        Set<String> secondCharges = ExitsInvariants.duplicatePaymentIds();
        for (AttemptRow a : attempts) {
            for (JsonNode p : allByReference.getOrDefault(a.reference(), List.of())) {
                String state = p.path("state").asString();
                if (!state.equals("DECLINED") && !state.equals("CANCELLED")
                        && !secondCharges.contains(p.path("id").asString())) {
                    live.merge(a.orderId(), 1, Integer::sum);
                }
            }
        }
        orders.values().forEach(o -> oneLive.check(live.getOrDefault(o.id(), 0) <= 1,
                o.ref() + " has " + live.get(o.id()) + " live payments"));
        checks.add(oneLive);

        Check oneRefund = new Check("one PSP refund per refund key (simulator create counts)");
        for (RefundRow r : refunds) {
            int created = counts.path(r.reference()).asInt(0);
            oneRefund.check(created <= 1, r.key() + " created " + created);
        }
        checks.add(oneRefund);

        Check refundsAtPsp = new Check("settled: each refund's state agrees with the PSP's refund");
        for (RefundRow r : refunds) {
            JsonNode p = byReference.get(r.reference());
            if (p == null) {
                refundsAtPsp.check(!r.state().equals("DONE"), r.key() + " DONE but unknown to the PSP");
                continue;
            }
            String state = p.path("state").asString();
            boolean ok = state.equals("COMPLETED") ? r.state().equals("DONE")
                    && decimal(p.path("amount")).compareTo(r.amount()) == 0
                    : state.equals("DECLINED") || state.equals("CANCELLED") ? r.state().equals("FAILED")
                    : !r.state().equals("FAILED");
            refundsAtPsp.check(ok, r.key() + " " + r.state() + " but PSP " + state);
        }
        checks.add(refundsAtPsp);

        Check open = new Check("settled: nothing IN_FLIGHT/UNKNOWN whose payment the PSP shows");
        long unknownAtPsp = 0;
        long hiddenAtPsp = 0;
        for (AttemptRow a : attempts) {
            boolean isOpen = a.state().equals("IN_FLIGHT") || a.state().equals("UNKNOWN");
            List<JsonNode> created = allByReference.getOrDefault(a.reference(), List.of());
            boolean shown = created.stream().anyMatch(p -> shownToLookups(p, seen));
            open.check(!(isOpen && shown), "attempt " + a.reference() + " " + a.state());
            unknownAtPsp += isOpen && created.isEmpty() ? 1 : 0;
            hiddenAtPsp += isOpen && !created.isEmpty() && !shown ? 1 : 0;
        }
        for (RefundRow r : refunds) {
            boolean isOpen = r.state().equals("IN_FLIGHT") || r.state().equals("UNKNOWN");
            List<JsonNode> created = allByReference.getOrDefault(r.reference(), List.of());
            boolean shown = created.stream().anyMatch(p -> shownToLookups(p, seen));
            open.check(!(isOpen && shown), "refund " + r.key() + " " + r.state());
            unknownAtPsp += isOpen && created.isEmpty() ? 1 : 0;
            hiddenAtPsp += isOpen && !created.isEmpty() && !shown ? 1 : 0;
        }
        for (String operation : db.openOperations()) {
            open.check(false, "operation " + operation);
        }
        open.checked += db.operationCount() - db.openOperations().size();
        checks.add(open);
        facts.put("open attempts/refunds the PSP never saw (503 before create; stay UNKNOWN by design)", unknownAtPsp);
        facts.put("open attempts/refunds the PSP still hides from look-ups (no webhook yet: not knowable)",
                hiddenAtPsp);

        Check agrees = new Check("settled: order status agrees with the PSP state of its latest attempt");
        Map<Long, AttemptRow> latest = new HashMap<>();
        attempts.forEach(a -> latest.put(a.orderId(), a));
        long skipped = 0;
        for (OrderRow o : orders.values()) {
            AttemptRow a = latest.get(o.id());
            JsonNode p = a == null ? null : byReference.get(a.reference());
            if (p == null || a.state().equals("FAILED") && a.detail().contains("abandoned")) {
                // an abandoned attempt's payment never moves the order (ExitsInvariants checks it)
                skipped++;
                continue;
            }
            String state = p.path("state").asString();
            boolean ok = switch (state) {
                case "COMPLETED" -> o.status().equals("PAID") && p.path("id").asString().equals(o.paymentId())
                        && o.paid() != null && o.paid().compareTo(decimal(p.path("amount"))) == 0;
                case "AUTHORIZED" -> o.status().equals("AUTHORIZED");
                case "DECLINED", "CANCELLED" -> o.status().equals("PAYMENT_FAILED");
                default -> o.status().equals("AWAITING_PAYMENT") || o.status().equals("PROCESSING");
            };
            if (!ok) {
                StringBuilder why = new StringBuilder(o.ref() + " is " + o.status() + " [" + o.detail() + "] but PSP "
                        + state + "; attempts:");
                attempts.stream().filter(x -> x.orderId() == o.id()).forEach(x -> {
                    JsonNode px = byReference.get(x.reference());
                    why.append(' ').append(x.reference()).append('=').append(x.state()).append('[').append(x.detail())
                            .append("] psp ").append(px == null ? "none" : px.path("id").asString() + ":"
                                    + px.path("state").asString());
                });
                agrees.violations.add(why.toString());
            }
            agrees.checked++;
        }
        checks.add(agrees);
        facts.put("orders whose latest attempt never reached the PSP", skipped);

        common(db, sink, downgrades, kills, checks, facts);

        ExitsInvariants.check(simPayments, webhooks, checks, facts);
        FinalTruthsInvariants.check(exits.log, client, simPayments, webhooks, sink, seen, checks, facts);
        StripeInvariants.check(stripe, checks, facts);

        facts.put("PSP payments (simulator)", (long) simPayments.path("payments").size());
        facts.put("webhook deliveries attempted (simulator)", (long) webhooks.size());
        return new Result(checks, facts);
    }

    /**
     * The invariants of our side that hold whatever the PSP: the refund reservation, no downgrade, every
     * effect delivered once and signed; and the counts of the summary.
     */
    static void common(Db db, JsonNode sink, List<String> downgrades, List<java.time.Instant> kills, List<Check> checks,
            Map<String, Long> facts) {
        Map<Long, OrderRow> orders = db.orders();
        List<AttemptRow> attempts = db.attempts();
        List<RefundRow> refunds = db.refunds();
        Map<String, String> outbox = db.outbox();
        Map<String, Integer> failedCalls = db.failedCalls();
        Check refunded = new Check("refunded_amount = DONE refunds + open reservations <= paid_amount");
        Map<Long, BigDecimal> reserved = new HashMap<>();
        for (RefundRow r : refunds) {
            if (!r.state().equals("FAILED") && !r.secondCharge()) { // a second charge's refund reserves the charge
                reserved.merge(r.orderId(), r.amount(), BigDecimal::add);
            }
        }
        for (OrderRow o : orders.values()) {
            BigDecimal expected = reserved.getOrDefault(o.id(), BigDecimal.ZERO);
            BigDecimal paid = o.paid() == null ? BigDecimal.ZERO : o.paid();
            refunded.check(o.refunded().compareTo(expected) == 0 && o.refunded().compareTo(paid) <= 0,
                    o.ref() + " refunded " + o.refunded() + " expected " + expected + " paid " + paid);
        }
        checks.add(refunded);

        Check noDowngrade = new Check("no order downgraded (status sampled every 250 ms)");
        noDowngrade.checked = orders.size();
        noDowngrade.violations.addAll(downgrades);
        checks.add(noDowngrade);

        Check effects = new Check("settled: every PAID order has its order_paid effect, delivered");
        for (OrderRow o : orders.values()) {
            if (o.status().equals("PAID")) {
                String key = o.paymentId() + ":order_paid";
                effects.check("delivered".equals(outbox.get(key)), o.ref() + " effect " + key + " " + outbox.get(key));
            }
        }
        outbox.forEach((key, state) -> effects.check(state.equals("delivered"), "outbox " + key + " " + state));
        checks.add(effects);

        Check once = new Check("every outbox effect reached the sink exactly once per Idempotency-Key");
        Map<String, List<java.time.Instant>> atSink = new HashMap<>();
        Map<String, Set<String>> bodies = new HashMap<>();
        for (JsonNode r : sink) {
            String key = r.path("idempotencyKey").asString(null);
            if (key != null && !key.isEmpty()) {
                atSink.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(java.time.Instant.parse(r.path("receivedAt").asString()));
                bodies.computeIfAbsent(key, k -> new java.util.HashSet<>())
                        .add(r.path("body").asString(""));
            }
        }
        long takeoverResends = 0;
        long takeoverResendsAfterKill = 0;
        long ambiguousResends = 0;
        long bothCauses = 0;
        Map<String, Integer> takenOver = takenOverKeys();
        for (String key : outbox.keySet()) {
            List<java.time.Instant> times = atSink.getOrDefault(key, List.of());
            int failed = failedCalls.getOrDefault(key, 0);
            int takeovers = takenOver.getOrDefault(key, 0);
            // Each documented cause excuses exactly one resend of the same body under the same key
            // (docs/outbox.md): a call the relay saw fail that the sink had accepted (counted in the row's
            // attempts), and a takeover from a holder whose session ended mid-send (logged per key).
            if (times.size() > 1 && bodies.get(key).size() == 1 && times.size() - 1 <= failed + takeovers) {
                if (takeovers > 0) {
                    takeoverResends++;
                    takeoverResendsAfterKill += killedRightAfter(times.get(0), times.get(times.size() - 1), kills)
                            ? 1 : 0;
                }
                if (failed > 0) {
                    ambiguousResends++;
                }
                if (takeovers > 0 && failed > 0) {
                    bothCauses++;
                }
                once.checked++;
                continue;
            }
            once.check(times.size() == 1, key + " reached the sink " + times.size() + " times (failed calls "
                    + failed + ", taken over " + takeovers + ")");
        }
        facts.put("effects resent after their holder's session ended (key taken over, logged; docs/outbox.md)",
                takeoverResends);
        facts.put("  of which with a SIGKILL between the two sends", takeoverResendsAfterKill);
        facts.put("effects resent after a sink call that timed out but was accepted (same key)", ambiguousResends);
        facts.put("  effects resent for both causes (one resend each)", bothCauses);
        Set<String> unknownKeys = new java.util.HashSet<>(atSink.keySet());
        unknownKeys.removeAll(outbox.keySet());
        unknownKeys.forEach(key -> once.check(false, key + " at the sink but in no outbox row"));
        checks.add(once);

        Check signed = new Check("every delivery the sink took was signed (Payments-Signature; Standard Webhooks)");
        for (JsonNode r : sink) {
            if ("POST".equals(r.path("method").asString())) {
                signed.check(r.path("signatureVerified").asBoolean(false),
                        r.path("idempotencyKey").asString() + " at " + r.path("path").asString() + " not verified");
            }
        }
        checks.add(signed);
        try {
            checks.addAll(ShopEventInvariants.check(sink));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }

        facts.put("orders", (long) orders.size());
        facts.put("checkout attempts", (long) attempts.size());
        facts.put("refund keys", (long) refunds.size());
        facts.put("capture/void operations", db.operationCount());
        facts.put("outbox effects", (long) outbox.size());
        facts.put("sink receptions", (long) sink.size());
        facts.put("inbox receipts still unprocessed", db.unprocessedReceipts());
        for (OrderRow o : orders.values()) {
            facts.merge("orders " + o.status(), 1L, Long::sum);
        }
        for (AttemptRow a : attempts) {
            facts.merge("attempts " + a.state(), 1L, Long::sum);
        }
        for (RefundRow r : refunds) {
            facts.merge("refunds " + r.state(), 1L, Long::sum);
        }
    }

    /**
     * Whether the PSP's look-ups show the payment at {@code at}: a payment created with the simulator's
     * {@code invisible} fault ({@code hiddenUntil}) is found by no search or GET until then, and a CHECKOUT
     * payment sends no webhook, so no service could know it yet — its attempt rightly stays UNKNOWN.
     */
    static boolean shownToLookups(JsonNode payment, java.time.Instant at) {
        String hiddenUntil = payment.path("hiddenUntil").asString("");
        return hiddenUntil.isEmpty() || !at.isBefore(java.time.Instant.parse(hiddenUntil));
    }

    /** A SIGKILL between the first reception and the resend: the sender may have died before its record. */
    private static boolean killedRightAfter(java.time.Instant first, java.time.Instant second,
            List<java.time.Instant> kills) {
        java.time.Instant from = first.isBefore(second) ? first : second;
        java.time.Instant to = first.isBefore(second) ? second : first;
        return kills.stream().anyMatch(k -> !k.isBefore(from) && !k.isAfter(to));
    }

    /** How often a relay logged "took over its key from a relay whose session had ended", per key (docs/outbox.md). */
    static Map<String, Integer> takenOverKeys() {
        Map<String, Integer> keys = new HashMap<>();
        java.util.regex.Pattern line = java.util.regex.Pattern.compile("\\((\\S+)\\) took over its key from a relay");
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of("target", "chaos"))) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".log")).toList()) {
                try (var lines = java.nio.file.Files.lines(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                    lines.map(line::matcher).filter(java.util.regex.Matcher::find)
                            .forEach(m -> keys.merge(m.group(1), 1, Integer::sum));
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return keys;
    }

    static BigDecimal decimal(JsonNode node) {
        return node.isNumber() ? node.decimalValue() : new BigDecimal(node.asString());
    }
}
