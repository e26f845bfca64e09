package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.acme.payments.chaos.ServiceClient.Answer;

import tools.jackson.databind.JsonNode;

/**
 * Money the service did not start and answers learnt late, beside the shoppers of the Stripe run, each kind
 * on its own thread a few times: refunds made in Stripe's Dashboard (some failed later), a refund whose create
 * is lost and then abandoned, and a refund and a checkout whose lost create is refused on the service's
 * replay. Each works on an order of its own, paid on instance 0 (automatic capture); its fault rules name
 * that order ({@code metadata[orderRef]}) or refund key ({@code metadata[refundKey]}). What was done is
 * recorded for {@link StripeOwnMoneyInvariants}; every answer is tolerated.
 */
final class StripeOwnMoney {

    /** A Dashboard refund of {@code orderRef}'s PaymentIntent; {@code failed}: failed later at Stripe. */
    record Dashboard(String orderRef, String refundId, boolean failed) {
    }

    /** An abandoned refund and how many POSTs Stripe had seen with its key when the abandon answered 200. */
    record Abandoned(String orderRef, String referenceId, int postsAtAbandon) {
    }

    /** A refund refused on its replay, and the refund of the remainder sent after it FAILED (its answer). */
    record RefusedRefund(String orderRef, String refundKey, String remainderKey, Answer remainder) {
    }

    /** A checkout refused on its replay: the order's attempt, and the checkout that came after. */
    record RefusedCheckout(String orderRef, Answer again) {
    }

    /** Tally names of the scenarios that happened (their misses are tallied under {@code stripe.own-money.miss.}). */
    static final String DASHBOARD = "stripe.own-money.dashboard-refund";
    static final String ABANDONED = "stripe.own-money.abandoned-refund";
    static final String REFUSED_REFUND = "stripe.own-money.refund-refused-on-replay";
    static final String DASHBOARD_FAILED = "stripe.own-money.failed-later-dashboard-refund";
    static final String REFUSED_CHECKOUT = "stripe.own-money.checkout-refused-on-replay";
    static final List<String> KINDS = List.of(DASHBOARD, DASHBOARD_FAILED, ABANDONED, REFUSED_REFUND,
            REFUSED_CHECKOUT);
    private static final String MISS = "stripe.own-money.miss.";

    final List<Dashboard> dashboard = new CopyOnWriteArrayList<>();
    final List<Abandoned> abandoned = new CopyOnWriteArrayList<>();
    final List<RefusedRefund> refusedRefunds = new CopyOnWriteArrayList<>();
    final List<RefusedCheckout> refusedCheckouts = new CopyOnWriteArrayList<>();

    private final ServiceClient client;
    private final ChaosSimulator sim;
    private final Tally tally;
    private final long seed;
    private final int rounds;
    private final Loops loops = new Loops("chaos-stripe-own-money-side");
    private final AtomicInteger orders = new AtomicInteger();

    /** {@code rounds}: how often each kind is done (at most: the workload's end stops them). */
    StripeOwnMoney(ServiceClient client, ChaosSimulator sim, Tally tally, long seed, int rounds) {
        this.rounds = rounds;
        this.client = client;
        this.sim = sim;
        this.tally = tally;
        this.seed = seed;
    }

    void start() {
        loops.start(4, "chaos-stripe-own-money-", i -> new Random(seed * 53 + i), this::loop);
    }

    void stop() throws InterruptedException {
        loops.stop();
    }

    private final AtomicInteger turn = new AtomicInteger();

    /** Each thread takes one kind; a few rounds each, not a load. */
    private void loop(Random random) {
        int kind = turn.getAndIncrement() % 4;
        for (int round = 0; round < rounds && loops.running(); round++) {
            try {
                switch (kind) {
                    case 0 -> dashboardRefund(random, round % 2 == 1);
                    case 1 -> abandonedRefund(random);
                    case 2 -> refundRefusedOnReplay(random);
                    default -> checkoutRefusedOnReplay(random);
                }
            } catch (RuntimeException e) {
                tally.add(MISS + "error." + e.getClass().getSimpleName());
            }
            pause(random, 1000, 3000);
        }
    }

    /** {@code fail}: Stripe fails it later, while it is pending. */
    private void dashboardRefund(Random random, boolean fail) {
        String orderRef = order(random);
        String intent = orderRef == null ? null : paid(random, orderRef);
        if (intent == null) {
            return;
        }
        long paidCents = paidCents(orderRef);
        // final is final: a refund fails late only while pending, so the one to fail takes an amount Stripe
        // keeps pending (StripePsp.PENDING_REFUNDS); the others an amount it neither keeps pending nor fails
        long part = Math.max(1, paidCents * (10 + random.nextInt(40)) / 100);
        if (fail) {
            part = Math.max(43, part / 43 * 43);
        }
        while (!fail && (part % 41 == 0 || part % 43 == 0)) {
            part++;
        }
        JsonNode refund = sim.stripeAnswer("payment_intents/" + intent + "/dashboard_refund",
                "{\"amount\":" + part + "}");
        String refundId = refund.path("id").asString("");
        if (!refundId.startsWith("re_")) {
            tally.add(miss(DASHBOARD) + ".not-made");
            return;
        }
        if (fail) {
            pause(random, 300, 2000);
            fail = sim.stripe("refunds/" + refundId + "/fail", "{}") == 200;
            tally.add(fail ? DASHBOARD_FAILED : miss(DASHBOARD_FAILED) + ".refused");
        }
        dashboard.add(new Dashboard(orderRef, refundId, fail));
        tally.add(DASHBOARD);
    }

    private void abandonedRefund(Random random) {
        String orderRef = order(random);
        if (orderRef == null || paid(random, orderRef) == null) {
            return;
        }
        String key = "rf-abandon-" + UUID.randomUUID();
        // every send lost until the abandon: nothing stored, so the refund stays UNKNOWN (never proven absent)
        sim.addFaults("{\"operation\":\"stripe-refund-create\",\"fault\":\"error-before\",\"referenceId\":\"" + key
                + "\"}");
        Answer created = refund(random, orderRef, key, half(orderRef));
        tally.add("stripe.own-money.facts.create-answer " + ABANDONED.substring(17) + " " + created.status() + " " + created.problem());
        JsonNode open = awaitRefund(random, orderRef, key, "UNKNOWN");
        if (open == null) {
            tally.add(miss(ABANDONED) + ".not-unknown");
            return;
        }
        String reference = open.path("referenceId").asString();
        for (int i = 0; i < 5 && loops.running(); i++) {
            Answer a = call(random, "POST", "/api/admin/refunds/" + reference + "/abandon", ServiceClient.ADMIN_KEY,
                    "{\"reason\":\"chaos\"}");
            if (a.status() == 200) {
                abandoned.add(new Abandoned(orderRef, reference, posts(reference)));
                tally.add(ABANDONED);
                return;
            }
            tally.add(miss(ABANDONED) + ".answer " + a.status() + " " + a.problem());
            pause(random, 500, 1500);
        }
    }

    private void refundRefusedOnReplay(Random random) {
        String orderRef = order(random);
        if (orderRef == null || paid(random, orderRef) == null) {
            return;
        }
        String key = "rf-refused-" + UUID.randomUUID();
        sim.addFaults("""
                [{"operation":"stripe-refund-create","fault":"refuse-replay","referenceId":"%1$s","times":1},
                 {"operation":"stripe-refund-create","fault":"error-before","referenceId":"%1$s","times":1}]"""
                .formatted(key));
        Answer created = refund(random, orderRef, key, half(orderRef));
        tally.add("stripe.own-money.facts.create-answer " + REFUSED_REFUND.substring(17) + " " + created.status() + " " + created.problem());
        // judged whatever came of it: a refusal left UNKNOWN blocks the remainder, which the invariant sees
        if (awaitRefund(random, orderRef, key, "FAILED") == null) {
            tally.add(miss(REFUSED_REFUND) + ".not-seen-failed");
        }
        String remainderKey = "rf-remainder-" + UUID.randomUUID();
        BigDecimal remainder = remainder(orderRef);
        Answer again = refund(random, orderRef, remainderKey, remainder);
        refusedRefunds.add(new RefusedRefund(orderRef, key, remainderKey, again));
        tally.add(REFUSED_REFUND);
    }

    private void checkoutRefusedOnReplay(Random random) {
        String orderRef = order(random);
        if (orderRef == null) {
            return;
        }
        sim.addFaults("""
                [{"operation":"stripe-session-create","fault":"refuse-replay","referenceId":"%1$s","status":402,"errorCode":"amount_too_large","times":1},
                 {"operation":"stripe-session-create","fault":"error-before","referenceId":"%1$s","times":1}]"""
                .formatted(orderRef));
        Answer first = client.call(0, "POST", "/api/orders/" + orderRef + "/checkout", ServiceClient.SHOP_KEY, null, null);
        for (int i = 0; i < 10 && loops.running() && (!first.answered() || first.status() == 503); i++) {
            pause(random, 500, 1500);
            first = client.call(0, "POST", "/api/orders/" + orderRef + "/checkout", ServiceClient.SHOP_KEY, null, null);
        }
        tally.add("stripe.own-money.facts.first-answer " + REFUSED_CHECKOUT.substring(17) + " " + first.status() + " " + first.problem());
        if (first.status() == 200 || !first.answered()) {
            tally.add(miss(REFUSED_CHECKOUT) + ".first " + first.status());
            return;
        }
        // refused on the replay (inline, or by the sweep): the attempt FAILED and a new checkout is taken
        Answer again = checkout(random, orderRef);
        if (!again.answered()) {
            tally.add(miss(REFUSED_CHECKOUT) + ".no-answer");
            return;
        }
        refusedCheckouts.add(new RefusedCheckout(orderRef, again));
        tally.add(REFUSED_CHECKOUT);
    }

    /** A new order of this kind's own, or null. */
    private String order(Random random) {
        String orderRef = "chaos-own-" + Long.toHexString(seed) + "-" + orders.incrementAndGet();
        // 50.00–149.99, never a multiple of the failing or pending refund amounts' factors
        long cents = 5000 + random.nextInt(10_000);
        String body = """
                {"orderRef":"%s","amount":"%s","currency":"EUR","customer":{"referenceId":"c-%s","email":"c@example.com"}}"""
                .formatted(orderRef, BigDecimal.valueOf(cents, 2).toPlainString(), orderRef);
        for (int i = 0; i < 8 && loops.running(); i++) {
            Answer a = call(random, "POST", "/api/orders", ServiceClient.SHOP_KEY, body);
            if (a.status() == 200 || a.status() == 201) {
                return orderRef;
            }
            pause(random, 300, 1200);
        }
        return null;
    }

    /** Checks out on instance 0 (automatic capture) and pays; the PaymentIntent of the PAID order, or null. */
    private String paid(Random random, String orderRef) {
        Answer a = checkout(random, orderRef);
        if (a.status() != 200) {
            tally.add(MISS + "not-paid.checkout " + a.status() + " " + a.problem());
            return null;
        }
        String redirect = a.json().path("redirectUrl").asString("");
        String session = redirect.substring(redirect.lastIndexOf('/') + 1);
        sim.stripe("sessions/" + session + "/complete", "{\"outcome\":\"pay\"}");
        for (int i = 0; i < 60 && loops.running(); i++) {
            JsonNode order = order(random, orderRef);
            String status = order.path("status").asString("");
            if (status.equals("PAID") && order.path("pspPaymentId").asString("").startsWith("pi_")) {
                return order.path("pspPaymentId").asString();
            }
            if (status.equals("AUTHORIZED")) {
                call(random, "POST", "/api/orders/" + orderRef + "/capture", ServiceClient.ADMIN_KEY, null);
            }
            pause(random, 400, 600);
        }
        tally.add(MISS + "not-paid");
        return null;
    }

    private Answer checkout(Random random, String orderRef) {
        Answer a = new Answer(0, "", null, 0);
        for (int i = 0; i < 20 && loops.running(); i++) {
            a = client.call(0, "POST", "/api/orders/" + orderRef + "/checkout", ServiceClient.SHOP_KEY, null, null);
            if (a.status() == 200 || a.status() == 422 || a.status() == 409 && a.problem().equals("order-not-payable")) {
                return a;
            }
            pause(random, 500, 1500);
        }
        return a;
    }

    private Answer refund(Random random, String orderRef, String key, BigDecimal amount) {
        String body = "{\"amount\":\"" + amount.toPlainString() + "\",\"currency\":\"EUR\"}";
        Answer a = new Answer(0, "", null, 0);
        for (int i = 0; i < 5 && loops.running(); i++) {
            a = client.call(client.randomInstance(random), "POST", "/api/orders/" + orderRef + "/refunds",
                    ServiceClient.ADMIN_KEY, key, body);
            if (a.answered() && a.status() != 503 && a.status() != 502) {
                return a;
            }
            pause(random, 500, 1500);
        }
        return a;
    }

    /** Waits up to about 30 s for the refund with this key to be in {@code state}; its view, or null. */
    private JsonNode awaitRefund(Random random, String orderRef, String key, String state) {
        for (int i = 0; i < 60 && loops.running(); i++) {
            Answer listing = call(random, "GET", "/api/orders/" + orderRef + "/refunds", ServiceClient.ADMIN_KEY, null);
            if (listing.status() == 200) {
                for (JsonNode r : StripeOwnMoneyInvariants.items(listing.json())) {
                    if (key.equals(r.path("refundKey").asString("")) && state.equals(r.path("state").asString())) {
                        return r;
                    }
                }
            }
            pause(random, 400, 600);
        }
        return null;
    }

    private JsonNode order(Random random, String orderRef) {
        Answer a = call(random, "GET", "/api/orders/" + orderRef, ServiceClient.SHOP_KEY, null);
        return a.status() == 200 ? a.json() : ChaosSimulator.JSON.createObjectNode();
    }

    private long paidCents(String orderRef) {
        return new BigDecimal(order(new Random(), orderRef).path("paidAmount").asString("0")).movePointRight(2)
                .longValue();
    }

    private BigDecimal half(String orderRef) {
        return BigDecimal.valueOf(paidCents(orderRef) / 2, 2);
    }

    private BigDecimal remainder(String orderRef) {
        JsonNode order = order(new Random(), orderRef);
        return new BigDecimal(order.path("paidAmount").asString("0"))
                .subtract(new BigDecimal(order.path("refundedAmount").asString("0")));
    }

    /** How many POSTs Stripe has seen with this Idempotency-Key. */
    int posts(String key) {
        return sim.stripeRecords("idempotency-keys").path(key).asInt(0);
    }

    private Answer call(Random random, String method, String path, String bearer, String body) {
        Answer a = client.call(client.randomInstance(random), method, path, bearer, null, body);
        if (!a.answered() || a.status() == 503) {
            a = client.call((a.instance() + 1) % client.instances(), method, path, bearer, null, body);
        }
        return a;
    }

    private static String miss(String kind) {
        return MISS + kind.substring("stripe.own-money.".length());
    }

    private static void pause(Random random, int min, int max) {
        ServiceProcesses.sleep(min + random.nextInt(max - min));
    }
}
