package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.acme.payments.chaos.ExitsWorkload.Hosted;
import com.acme.payments.chaos.ServiceClient.Answer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Values no booking may take. A real payment of ours is paid on the hosted page with its
 * webhook suppressed, then signed copies of it are posted, each with one corrupted value, every kind of the
 * menu in turn ({@link #signedWebhook}); or its
 * look-ups (GET by id and find by reference) answer a corrupted value a few times while the shopper comes
 * back ({@link #lookUpAnswer}). The contract: 200 {@code unknown_payment} for the webhook, never a 5xx,
 * the receipt kept open, and the order still ends in the state the simulator holds (the replay job, the
 * straggler poll or a later look-up reads the truth).
 */
final class PayloadFaults {

    /** The corruptions of a webhook: {kind, the payment field}; {@link #value} makes the bad value. */
    private static final String[][] WEBHOOK_MENU = {
            {"currency-EURO", "currency"},
            {"amount-negative", "amount"},
            {"amount-zero-on-completed", "amount"},
            {"amount-too-many-fraction-digits", "amount"},
            {"id-over-255", "id"},
            {"reference-over-255", "referenceId"},
    };
    /** The same for look-up answers, but the id (a GET by id answering another id is another fault). */
    private static final String[][] LOOKUP_MENU = {
            {"currency-EURO", "currency"},
            {"amount-negative", "amount"},
            {"amount-zero-on-completed", "amount"},
            {"amount-too-many-fraction-digits", "amount"},
            {"reference-over-255", "referenceId"},
    };

    private record Paid(String orderRef, Hosted hosted) {
    }

    private final ExitsWorkload exits;
    /** The look-up corruptions in turn, so that few scenarios still see different ones. */
    private final java.util.concurrent.atomic.AtomicInteger lookUpTurn = new java.util.concurrent.atomic.AtomicInteger();

    PayloadFaults(ExitsWorkload exits) {
        this.exits = exits;
    }

    void signedWebhook(Random random) {
        Paid paid = payWithoutWebhook(random);
        if (paid == null) {
            return;
        }
        JsonNode real = payment(paid.hosted());
        if (real == null) {
            exits.tally.add("exits.payload-fault.no-payment");
            return;
        }
        // every corruption of the one payment, each answered unknown_payment; the currency first, on a fresh
        // receipt, so a receipt rolled back with a failed apply shows (FinalTruthsLog.Post#receiptAfter)
        for (String[] fault : WEBHOOK_MENU) {
            ObjectNode corrupted = SignedWebhooks.copyOf(real);
            String value = value(fault[0], real.path(fault[1]).asString(), Invariants.decimal(real.path("amount")));
            if (fault[1].equals("amount")) {
                corrupted.put("amount", new BigDecimal(value));
            } else {
                corrupted.put(fault[1], value);
            }
            FinalTruthsLog.Post post = SignedWebhooks.post(exits.client, random, fault[0], paid.orderRef(), corrupted);
            exits.log.payloadPosts.add(post);
            post.answers().forEach(a -> exits.tally.add("exits.payload-fault.webhook." + fault[0] + " "
                    + SignedWebhooks.describe(a)));
        }
    }

    void lookUpAnswer(Random random) {
        int n = exits.nextNumber();
        String orderRef = exits.newOrder("900.00", n);
        if (orderRef == null) {
            return;
        }
        Hosted hosted = exits.hosted(random, orderRef);
        if (hosted == null) {
            return;
        }
        String[] fault = LOOKUP_MENU[lookUpTurn.getAndIncrement() % LOOKUP_MENU.length];
        BigDecimal amount = new BigDecimal("900.00").add(BigDecimal.valueOf(n, 2));
        String value = value(fault[0], hosted.referenceId(), amount);
        int times = 1 + random.nextInt(3);
        // the truth must come from a look-up: the webhook is suppressed, the look-ups lie a few times first
        exits.sim.addFaults("""
                [{"operation":"get","fault":"corrupt-answer","referenceId":"%1$s","field":"%2$s","value":"%3$s","times":%4$d},
                 {"operation":"find","fault":"corrupt-answer","referenceId":"%1$s","field":"%2$s","value":"%3$s","times":%4$d},
                 {"operation":"webhook","fault":"webhook-never","referenceId":"%1$s","times":1}]"""
                .formatted(hosted.referenceId(), fault[1], value, times));
        exits.sim.click(hosted.paymentId(), "pay");
        List<Answer> returns = new ArrayList<>();
        for (int i = 0; i < 4 && exits.running(); i++) {
            Answer a = exits.call(random, "GET", "/api/orders/" + orderRef + "/return", null, null);
            returns.add(a);
            exits.tally.add("exits.payload-fault.look-up." + fault[0] + ".return " + (a.status() / 100 == 2
                    ? a.status() + " " + a.json().path("status").asString("") : SignedWebhooks.describe(a)));
            ExitsWorkload.pause(random, 300, 900);
        }
        exits.log.corruptedLookUps.add(new FinalTruthsLog.CorruptedLookUp(orderRef, fault[0], List.copyOf(returns)));
    }

    /** A new order paid on the hosted page, its webhook suppressed (so the corrupted copy comes first). */
    private Paid payWithoutWebhook(Random random) {
        int n = exits.nextNumber();
        String orderRef = exits.newOrder("900.00", n);
        if (orderRef == null) {
            return null;
        }
        Hosted hosted = exits.hosted(random, orderRef);
        if (hosted == null) {
            return null;
        }
        exits.sim.addFaults("""
                [{"operation":"webhook","fault":"webhook-never","referenceId":"%s","times":1}]"""
                .formatted(hosted.referenceId()));
        exits.sim.click(hosted.paymentId(), "pay");
        return new Paid(orderRef, hosted);
    }

    private JsonNode payment(Hosted hosted) {
        for (JsonNode p : exits.sim.paymentsFor(hosted.referenceId())) {
            if (p.path("id").asString().equals(hosted.paymentId())) {
                return p;
            }
        }
        return null;
    }

    /** The bad value of one corruption, from the field's true text and the payment's true amount. */
    private static String value(String kind, String trueText, BigDecimal amount) {
        return switch (kind) {
            case "currency-EURO" -> "EURO";
            case "amount-negative" -> amount.negate().toPlainString();
            case "amount-zero-on-completed" -> "0";
            case "amount-too-many-fraction-digits" -> amount.setScale(3).add(new BigDecimal("0.001")).toPlainString();
            default -> longText(trueText);
        };
    }

    /** The true value made longer than 255 characters (it still starts like the real one). */
    private static String longText(String real) {
        return real + "-" + "x".repeat(300 - real.length());
    }
}
