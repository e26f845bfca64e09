package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import com.acme.payments.chaos.ServiceClient.Answer;

import tools.jackson.databind.JsonNode;

/**
 * The PSP-side faults of the exits, driven next to the shoppers (and under the same crashes and outages):
 * refunds the PSP accepts {@code PENDING} and later {@code DECLINED} (sometimes without a webhook, so the
 * straggler poll must find it); stale webhooks of an earlier attempt's payment after the customer retried;
 * and an operator abandon of an UNKNOWN attempt whose hidden payment later appears and completes — a
 * second charge, which operators refund from two instances at once. Amounts are unique per scenario
 * (deposits from 900.00, refunds from 1.00 by cent), so the simulator's fault rules hit only them.
 * It adds, as a modest share of the loop, payload faults (signed webhooks and look-up answers whose
 * values no booking may take, {@link PayloadFaults}), contradicting reports on final payments and refunds
 * ({@link ContradictingReports}), and second-charge refunds going UNKNOWN or PENDING then DECLINED
 * ({@link SecondChargeRefunds}); what they saw is kept in {@link FinalTruthsLog}.
 * Every answer is tolerated; the verdict is {@link ExitsInvariants} and {@link FinalTruthsInvariants}.
 */
final class ExitsWorkload {

    /**
     * The opening draws: a payload-fault webhook, a corrupted look-up and two contradicting reports, between
     * three abandon scenarios that refund their second charge (UNKNOWN then swept, PENDING then DECLINED,
     * abandoned), so that even the short run sees each such fault.
     */
    // each scenario kind the run requires, the chance-driven ones (a declined refund, a stale webhook) twice,
    // since a fault may take the order they start on
    private static final double[] OPENING = {0.80, 0.60, 0.40, 0.87, 0.10, 0.60, 0.94, 0.40, 0.60, 0.10, 0.94};

    /** A hosted page: the PSP payment and the checkout attempt's reference. */
    record Hosted(String paymentId, String referenceId) {
    }

    final ServiceClient client;
    final ChaosSimulator sim;
    private final long seed;
    final Tally tally;
    final FinalTruthsLog log = new FinalTruthsLog();
    private final AtomicInteger number = new AtomicInteger();
    private final AtomicInteger opening = new AtomicInteger();
    private final PayloadFaults payloadFaults = new PayloadFaults(this);
    private final ContradictingReports contradictions = new ContradictingReports(this);
    private final SecondChargeRefunds secondChargeRefunds = new SecondChargeRefunds(this);
    private final Loops loops = new Loops("chaos-exits-side");

    ExitsWorkload(ServiceClient client, ChaosSimulator sim, long seed, Tally tally) {
        this.client = client;
        this.sim = sim;
        this.seed = seed;
        this.tally = tally;
    }

    void start(int operators) {
        loops.start(operators, "chaos-exits-", i -> new Random(seed * 17 + 1000 + i), this::loop);
    }

    void stop() throws InterruptedException {
        loops.stop();
    }

    private void loop(Random random) {
        while (loops.running()) {
            try {
                // each scenario once first (OPENING), so even the short run has them all; then by chance
                int first = opening.getAndIncrement();
                boolean inOpening = first < OPENING.length;
                // a second-charge scenario that could not happen on its charge gets the next one
                boolean chargeWanted = !inOpening && secondChargeRefunds.wantsCharge();
                double dice = inOpening ? OPENING[first] : chargeWanted ? 0.6 : random.nextDouble();
                if (dice < 0.28) {
                    refundPendingThenDeclined(random);
                } else if (dice < 0.52) {
                    staleWebhookOfAnEarlierAttempt(random);
                } else if (dice < 0.80) {
                    abandonThenHiddenPaymentCompletes(random, inOpening || chargeWanted);
                } else if (dice < 0.87) {
                    payloadFaults.signedWebhook(random);
                } else if (dice < 0.93) {
                    payloadFaults.lookUpAnswer(random);
                } else {
                    contradictions.report(random);
                }
            } catch (RuntimeException e) {
                tally.add("exits.error." + e.getClass().getSimpleName());
            }
        }
    }

    private void refundPendingThenDeclined(Random random) {
        int n = number.incrementAndGet();
        String orderRef = newOrder("900.00", n);
        if (orderRef == null || !paid(random, orderRef)) {
            return;
        }
        String refundAmount = new BigDecimal("1.00").add(BigDecimal.valueOf(n, 2)).toPlainString();
        sim.addFaults("""
                [{"operation":"create","fault":"settle","paymentType":"REFUND","amount":"%s","state":"PENDING","times":1}]"""
                .formatted(refundAmount));
        String key = "rfx-" + UUID.randomUUID();
        String body = "{\"amount\":\"" + refundAmount + "\",\"currency\":\"EUR\",\"reason\":\"chaos\"}";
        Answer refund = null;
        for (int i = 0; i < 6 && loops.running(); i++) {
            refund = call(random, "POST", "/api/orders/" + orderRef + "/refunds", key, body);
            if (refund.status() == 201 || refund.status() == 200) {
                break;
            }
            pause(random, 300, 1000);
        }
        if (refund == null || refund.status() / 100 != 2) {
            tally.add("exits.refund.no-answer");
            return;
        }
        String paymentId = refund.json().path("pspPaymentId").asString("");
        String reference = refund.json().path("referenceId").asString("");
        tally.add("exits.refund." + refund.json().path("state").asString() + "." + refund.json().path("pspState").asString(""));
        if (paymentId.isEmpty()) {
            return;
        }
        if (!"PENDING".equals(refund.json().path("pspState").asString(""))) {
            // the PSP's states: only a non-final refund can still be declined; a COMPLETED one is final
            tally.add("exits.refund.not-pending");
            return;
        }
        pause(random, 300, 2500);
        if (random.nextBoolean()) {
            sim.addFaults("""
                    [{"operation":"webhook","fault":"webhook-never","referenceId":"%s","times":1}]""".formatted(reference));
            tally.add("exits.refund.decline-without-webhook");
        }
        tally.add("exits.refund.psp-declined-" + sim.move(paymentId, "DECLINED", "REFUND_REVERSED"));
    }

    private void staleWebhookOfAnEarlierAttempt(Random random) {
        int n = number.incrementAndGet();
        String orderRef = newOrder("900.00", n);
        if (orderRef == null) {
            return;
        }
        String first = checkout(random, orderRef);
        if (first == null) {
            return;
        }
        sim.click(first, "decline");
        pause(random, 200, 1500);
        String second = checkout(random, orderRef);
        if (second == null || second.equals(first)) {
            return;
        }
        double dice = random.nextDouble();
        sim.click(second, dice < 0.6 ? "pay" : dice < 0.8 ? "authorize" : "decline");
        pause(random, 0, 1500);
        String stale = random.nextBoolean() ? "AUTHORIZED" : random.nextBoolean() ? "PENDING" : "DECLINED";
        tally.add("exits.stale-webhook." + stale + "-" + sim.resendAs(first, stale));
    }

    /** @param refund whether the second charge is surely refunded (the opening), else 70 % of the time */
    private void abandonThenHiddenPaymentCompletes(Random random, boolean refund) {
        int n = number.incrementAndGet();
        BigDecimal amount = new BigDecimal("900.00").add(BigDecimal.valueOf(n, 2));
        String orderRef = newOrder("900.00", n);
        if (orderRef == null) {
            return;
        }
        // created at the PSP, the answer lost (500), and hidden from look-ups: the attempt stays UNKNOWN
        sim.addFaults("""
                [{"operation":"create","fault":"error-after,invisible","paymentType":"DEPOSIT","amount":"%s","delayMs":600000,"times":1}]"""
                .formatted(amount.toPlainString()));
        String reference = null;
        for (int i = 0; i < 6 && loops.running() && reference == null; i++) {
            Answer a = call(random, "POST", "/api/orders/" + orderRef + "/checkout", null, null);
            if (a.status() == 409 && a.problem().equals("payment-outcome-unknown")) {
                reference = a.json().path("referenceId").asString(null);
            } else if (a.status() == 200) {
                tally.add("exits.abandon.not-hidden");
                return;
            }
            pause(random, 300, 1000);
        }
        if (reference == null) {
            tally.add("exits.abandon.no-unknown");
            revealHidden(amount);
            return;
        }
        String ref = reference;
        CompletableFuture<Answer> other = CompletableFuture.supplyAsync(
                () -> call(random, "POST", "/api/admin/attempts/" + ref + "/abandon", null, "{\"reason\":\"chaos\"}"), side());
        Answer abandoned = call(random, "POST", "/api/admin/attempts/" + ref + "/abandon", null, "{\"reason\":\"chaos\"}");
        Answer second = other.join();
        tally.add("exits.abandon.answers." + abandoned.status() + "+" + second.status());
        if (abandoned.status() != 200 && second.status() != 200) {
            revealHidden(amount);
            return;
        }
        if (random.nextDouble() < 0.7) {
            String retry = checkout(random, orderRef);
            if (retry != null) {
                sim.click(retry, "pay");
            }
        }
        JsonNode hidden = sim.paymentsFor(ref);
        if (hidden.isEmpty()) {
            return;
        }
        String hiddenId = hidden.get(0).path("id").asString();
        pause(random, 200, 1500);
        tally.add("exits.hidden-completes-" + sim.move(hiddenId, "COMPLETED", null));
        if (random.nextDouble() < 0.7 || refund) {
            pause(random, 500, 2500);
            secondChargeRefunds.refund(random, hiddenId, amount);
        }
    }

    /**
     * The scenario stopped before its abandon took (an outage, a look-up fault, the run ending): the
     * customer paid on the hidden page after all, so the payment shows up (COMPLETED, with its webhook)
     * and the attempt, still UNKNOWN, settles by it — not left hidden for the rest of the run.
     */
    private void revealHidden(BigDecimal amount) {
        for (JsonNode p : sim.payments().path("payments")) {
            if (p.path("paymentType").asString().equals("DEPOSIT") && p.has("hiddenUntil")
                    && (p.path("amount").isNumber() ? p.path("amount").decimalValue()
                            : new BigDecimal(p.path("amount").asString())).compareTo(amount) == 0) {
                tally.add("exits.abandon.not-taken.hidden-completes-" + sim.move(p.path("id").asString(), "COMPLETED", null));
            }
        }
    }

    /** The next scenario number: its order's amount is 900.00 + n cents, unique to it. */
    int nextNumber() {
        return number.incrementAndGet();
    }

    boolean running() {
        return loops.running();
    }

    /** The pool for calls fired beside a loop's own (a second operator's abandon or refund). */
    ExecutorService side() {
        return loops.side();
    }

    String newOrder(String base, int n) {
        String orderRef = "chaos-x-" + Long.toHexString(seed) + "-" + n;
        String amount = new BigDecimal(base).add(BigDecimal.valueOf(n, 2)).toPlainString();
        String body = """
                {"orderRef":"%s","amount":"%s","currency":"EUR","customer":{"referenceId":"cx-%s"}}"""
                .formatted(orderRef, amount, orderRef);
        for (int i = 0; i < 6 && loops.running(); i++) {
            Answer a = client.call(i % client.instances(), "POST", "/api/orders", ServiceClient.SHOP_KEY, null, body);
            if (a.status() == 200 || a.status() == 201) {
                tally.add("exits.orders");
                return orderRef;
            }
            ServiceProcesses.sleep(500);
        }
        return null;
    }

    /** Checkout until a hosted page comes back: its payment id, or null. */
    private String checkout(Random random, String orderRef) {
        Hosted hosted = hosted(random, orderRef);
        return hosted == null ? null : hosted.paymentId();
    }

    /** Checkout until a hosted page comes back: its payment and the attempt's reference, or null. */
    Hosted hosted(Random random, String orderRef) {
        for (int i = 0; i < 6 && loops.running(); i++) {
            Answer a = call(random, "POST", "/api/orders/" + orderRef + "/checkout", null, null);
            if (a.status() == 200) {
                String redirect = a.json().path("redirectUrl").asString("");
                return new Hosted(redirect.substring(redirect.lastIndexOf('/') + 1),
                        a.json().path("attempt").path("referenceId").asString(""));
            }
            if (a.status() == 409 && a.problem().equals("order-not-payable")) {
                return null;
            }
            pause(random, 300, 1000);
        }
        return null;
    }

    private boolean paid(Random random, String orderRef) {
        return paidHosted(random, orderRef) != null;
    }

    /** Checkout, pay on the hosted page, come back until the order is PAID: its hosted page, or null. */
    Hosted paidHosted(Random random, String orderRef) {
        Hosted hosted = hosted(random, orderRef);
        if (hosted == null) {
            return null;
        }
        sim.click(hosted.paymentId(), "pay");
        for (int i = 0; i < 20 && loops.running(); i++) {
            Answer a = call(random, "GET", "/api/orders/" + orderRef + "/return", null, null);
            if (a.status() == 200 && a.json().path("status").asString("").equals("PAID")) {
                return hosted;
            }
            pause(random, 300, 800);
        }
        return null;
    }

    /** Shop calls with the shop key, admin calls with the admin key, on a random instance. */
    Answer call(Random random, String method, String path, String key, String body) {
        String bearer = path.startsWith("/api/admin/") || path.endsWith("/refunds") ? ServiceClient.ADMIN_KEY
                : ServiceClient.SHOP_KEY;
        int instance = client.randomInstance(random);
        Answer a = client.call(instance, method, path, bearer, key, body);
        if (!a.answered()) {
            a = client.call((instance + 1) % client.instances(), method, path, bearer, key, body);
        }
        return a;
    }

    static void pause(Random random, int min, int max) {
        ServiceProcesses.sleep(min + random.nextInt(Math.max(1, max - min)));
    }
}
