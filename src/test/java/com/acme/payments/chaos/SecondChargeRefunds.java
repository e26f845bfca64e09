package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import com.acme.payments.chaos.ServiceClient.Answer;

import tools.jackson.databind.JsonNode;

/**
 * Refunds of a second charge ({@code POST /api/admin/duplicate-charges/{id}/refund}). Plain:
 * from two instances at once, exactly one REFUND at the PSP. Every refund alike: the
 * refund's create answered 500 after the PSP made it, its webhook suppressed and the refund hidden from
 * look-ups for 5 s, so it goes UNKNOWN — listed by {@code /unresolved} as {@code duplicate_refund} and
 * settled by the sweep; or hidden for 10 minutes, then abandoned from two
 * instances and later revealed COMPLETED (the PSP made it after all) or DECLINED; or accepted PENDING and
 * then DECLINED at the PSP (half the time without its webhook), which must make it FAILED, send
 * {@code refund_failed} and leave the charge refundable again — which the workload then does.
 * The charge's amount is the scenario's own (900.00 + n cents): the create rules match only its refund.
 */
final class SecondChargeRefunds {

    private final ExitsWorkload exits;

    SecondChargeRefunds(ExitsWorkload exits) {
        this.exits = exits;
    }

    /** The modes in turn, the exits' first (so a short run sees each): swept, declined, abandoned, plain. */
    void refund(Random random, String chargeId, BigDecimal amount) {
        switch (abandonAgain.getAndSet(false) ? 2 : turn.getAndIncrement() % MODES) {
            case 0 -> unknownThenSwept(random, chargeId, amount);
            case 1 -> pendingThenDeclined(random, chargeId, amount);
            case 2 -> unknownThenAbandoned(random, chargeId, amount);
            default -> twice(random, chargeId);
        }
    }

    private static final int MODES = 4;
    private final java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();
    /**
     * The abandon found nothing open (a fault rule added earlier took the hidden create): the next charge is
     * abandoned instead, so a run does not end without the scenario.
     */
    private final java.util.concurrent.atomic.AtomicBoolean abandonAgain = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Whether a mode still waits for a charge of its own: the abandon that found nothing open, or a mode no charge
     * has reached yet (a run with few second charges would otherwise end without the last ones).
     */
    boolean wantsCharge() {
        return abandonAgain.get() || turn.get() < MODES;
    }

    /**
     * One refund call, again while the charge is not flagged yet (404: its webhook or the abandoned-attempt
     * watch has not come), no instance answered or the database was out; the first other answer.
     */
    private Answer call(Random random, String chargeId) {
        Answer a = exits.call(random, "POST", path(chargeId), null, "{}");
        for (int i = 0; i < 6 && exits.running() && (a.status() == 404 || a.status() == 503 || !a.answered()); i++) {
            ExitsWorkload.pause(random, 500, 1500);
            a = exits.call(random, "POST", path(chargeId), null, "{}");
        }
        return a;
    }

    /** The refund from two instances at once, until one says 2xx. */
    private void twice(Random random, String chargeId) {
        String path = path(chargeId);
        for (int i = 0; i < 5 && exits.running(); i++) {
            CompletableFuture<Answer> twin = CompletableFuture
                    .supplyAsync(() -> exits.call(random, "POST", path, null, "{}"), exits.side());
            Answer a = exits.call(random, "POST", path, null, "{}");
            Answer b = twin.join();
            exits.tally.add("exits.duplicate-refund.answers." + a.status() + "+" + b.status());
            if (a.status() / 100 == 2 || b.status() / 100 == 2) {
                return;
            }
            ExitsWorkload.pause(random, 500, 1500);
        }
    }

    private void unknownThenSwept(Random random, String chargeId, BigDecimal amount) {
        // the refund's own webhook would settle it before the 500 is handled, and a look-up at once after:
        // both kept away for a few seconds, then the sweep's look-up finds it
        exits.sim.addFaults("""
                [{"operation":"create","fault":"error-after,invisible","paymentType":"REFUND","amount":"%1$s","delayMs":5000,"times":1},
                 {"operation":"webhook","fault":"webhook-never","paymentType":"REFUND","amount":"%1$s","times":1}]"""
                .formatted(amount.toPlainString()));
        Answer a = call(random, chargeId);
        exits.tally.add("exits.duplicate-refund.unknown.answer " + SignedWebhooks.describe(a));
        seenOpen(random, chargeId);
    }

    private void unknownThenAbandoned(Random random, String chargeId, BigDecimal amount) {
        exits.sim.addFaults("""
                [{"operation":"create","fault":"error-after,invisible","paymentType":"REFUND","amount":"%1$s","delayMs":600000,"times":1},
                 {"operation":"webhook","fault":"webhook-never","paymentType":"REFUND","amount":"%1$s","times":1}]"""
                .formatted(amount.toPlainString()));
        Answer a = call(random, chargeId);
        exits.tally.add("exits.duplicate-refund.hidden.answer " + SignedWebhooks.describe(a));
        String reference = seenOpen(random, chargeId);
        if (reference == null) {
            reveal(random, hiddenRefundOf(chargeId), "COMPLETED");
            abandonAgain.set(true);
            return;
        }
        String abandon = "/api/admin/refunds/" + reference + "/abandon";
        CompletableFuture<Answer> other = CompletableFuture.supplyAsync(
                () -> exits.call(random, "POST", abandon, null, "{\"reason\":\"chaos\"}"), exits.side());
        Answer first = exits.call(random, "POST", abandon, null, "{\"reason\":\"chaos\"}");
        Answer second = other.join();
        exits.tally.add("exits.duplicate-refund.abandon.answers." + first.status() + "+" + second.status());
        List<Answer> answers = new java.util.ArrayList<>(List.of(first, second));
        // a look-up fault on the "ask the PSP once more" is 409 refund-outcome-unknown: the operator tries again
        for (int i = 0; i < 3 && answers.stream().noneMatch(x -> x.status() == 200)
                && answers.get(answers.size() - 1).problem().equals("refund-outcome-unknown"); i++) {
            ExitsWorkload.pause(random, 500, 1500);
            answers.add(exits.call(random, "POST", abandon, null, "{\"reason\":\"chaos\"}"));
        }
        exits.log.abandonedSecondChargeRefunds.add(
                new FinalTruthsLog.AbandonedSecondChargeRefund(chargeId, reference, List.copyOf(answers)));
        // the PSP made it after all, or declined it; when the abandon did not take, the sweep must find it
        boolean taken = answers.stream().anyMatch(x -> x.status() == 200);
        reveal(random, hiddenRefundOf(chargeId), !taken || random.nextBoolean() ? "COMPLETED" : "DECLINED");
    }

    private void pendingThenDeclined(Random random, String chargeId, BigDecimal amount) {
        exits.sim.addFaults("""
                [{"operation":"create","fault":"settle","paymentType":"REFUND","amount":"%s","state":"PENDING","times":1}]"""
                .formatted(amount.toPlainString()));
        Answer a = call(random, chargeId);
        String reference = a.status() / 100 == 2 ? a.json().path("referenceId").asString("") : "";
        JsonNode refund = reference.isEmpty() ? null : refundAtPsp(reference);
        if (refund == null || !refund.path("state").asString().equals("PENDING")) {
            exits.tally.add("exits.duplicate-refund.pending.not-pending");
            return;
        }
        String refundId = refund.path("id").asString();
        ExitsWorkload.pause(random, 300, 2000);
        if (random.nextBoolean()) {
            exits.sim.addFaults("""
                    [{"operation":"webhook","fault":"webhook-never","referenceId":"%s","times":1}]""".formatted(reference));
            exits.tally.add("exits.duplicate-refund.pending.decline-without-webhook");
        }
        exits.tally.add("exits.duplicate-refund.pending.psp-declined-" + exits.sim.move(refundId, "DECLINED",
                "REFUND_REVERSED"));
        boolean failed = false;
        for (int i = 0; i < 40 && exits.running() && !failed; i++) {
            ExitsWorkload.pause(random, 400, 600);
            JsonNode seen = refundOf(random, chargeId);
            failed = seen != null && reference.equals(seen.path("referenceId").asString())
                    && seen.path("state").asString().equals("FAILED");
        }
        Answer again = null;
        if (failed) {
            for (int i = 0; i < 5; i++) {
                again = exits.call(random, "POST", path(chargeId), null, "{}");
                if (again.status() / 100 == 2 || again.answered() && again.status() < 500 && again.status() != 409) {
                    break;
                }
                ExitsWorkload.pause(random, 500, 1500);
            }
            exits.tally.add("exits.duplicate-refund.pending.refunded-again " + SignedWebhooks.describe(again));
        } else {
            exits.tally.add("exits.duplicate-refund.pending.not-seen-failed");
        }
        exits.log.declinedSecondChargeRefunds.add(
                new FinalTruthsLog.DeclinedSecondChargeRefund(chargeId, reference, refundId, failed, again));
    }

    /**
     * Reads the charge's refund twice, asking {@code /unresolved} in between: when it is open both times, the
     * listing must have named it. Returns its reference when it was seen open, else null.
     */
    private String seenOpen(Random random, String chargeId) {
        JsonNode before = refundOf(random, chargeId);
        if (before == null || !open(before)) {
            exits.tally.add("exits.duplicate-refund.not-open." + (before == null ? "none" : before.path("state").asString()));
            return null;
        }
        String reference = before.path("referenceId").asString();
        Answer unresolved = exits.call(random, "GET", "/api/admin/unresolved", null, null);
        JsonNode after = refundOf(random, chargeId);
        if (unresolved.status() != 200 || after == null || !open(after)
                || !reference.equals(after.path("referenceId").asString())) {
            exits.tally.add("exits.duplicate-refund.open.not-observed");
            return reference;
        }
        String listedAs = null;
        for (JsonNode item : unresolved.json()) {
            if (reference.equals(item.path("referenceId").asString())) {
                listedAs = item.path("kind").asString();
            }
        }
        exits.log.openSecondChargeRefunds.add(new FinalTruthsLog.OpenSecondChargeRefund(chargeId, reference,
                after.path("state").asString(), "duplicate_refund".equals(listedAs), listedAs));
        exits.tally.add("exits.duplicate-refund.open.listed-as-" + listedAs);
        return reference;
    }

    /** The {@code refund} of the charge in {@code GET /api/admin/duplicate-charges}, or null. */
    private JsonNode refundOf(Random random, String chargeId) {
        Answer listing = exits.call(random, "GET", "/api/admin/duplicate-charges", null, null);
        if (listing.status() != 200) {
            return null;
        }
        for (JsonNode charge : listing.json()) {
            if (chargeId.equals(charge.path("pspPaymentId").asString()) && charge.path("refund").isObject()) {
                return charge.path("refund");
            }
        }
        return null;
    }

    private static boolean open(JsonNode refund) {
        String state = refund.path("state").asString();
        return state.equals("IN_FLIGHT") || state.equals("UNKNOWN");
    }

    private JsonNode refundAtPsp(String reference) {
        JsonNode found = exits.sim.paymentsFor(reference);
        return found.isEmpty() ? null : found.get(0);
    }

    /** The charge's hidden REFUND at the PSP, or null. */
    private String hiddenRefundOf(String chargeId) {
        for (JsonNode p : exits.sim.payments().path("payments")) {
            if (chargeId.equals(p.path("parentPaymentId").asString()) && p.has("hiddenUntil")) {
                return p.path("id").asString();
            }
        }
        return null;
    }

    private void reveal(Random random, String refundId, String state) {
        if (refundId == null) {
            return;
        }
        ExitsWorkload.pause(random, 300, 1500);
        exits.tally.add("exits.duplicate-refund.hidden." + state.toLowerCase(java.util.Locale.ROOT) + "-"
                + exits.sim.move(refundId, state, state.equals("DECLINED") ? "REFUND_DECLINED" : null));
    }

    private static String path(String chargeId) {
        return "/api/admin/duplicate-charges/" + chargeId + "/refund";
    }
}
