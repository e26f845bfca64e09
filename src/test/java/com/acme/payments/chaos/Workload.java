package com.acme.payments.chaos;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import com.acme.payments.chaos.ServiceClient.Answer;

/**
 * Shoppers, each a thread with its own seeded random: create an order, check out (often with a
 * double-click on two instances), pay / decline / authorize on the PSP's hosted page ({@link HostedPage}:
 * the Gateway's or Stripe's) or leave it open, come back, capture or void an authorization, retry after a
 * decline, and refund with fresh keys, replayed keys, keys sent to two instances at once and keys reused
 * for another amount.
 * Every answer is tolerated — the verdict comes from the invariants, not from the answers.
 */
final class Workload {

    private final ServiceClient client;
    private final HostedPage page;
    private final long seed;
    private final Tally tally = new Tally();
    private final AtomicInteger orderNumber = new AtomicInteger();
    private final Loops loops = new Loops("chaos-double-click");

    Workload(ServiceClient client, HostedPage page, long seed) {
        this.client = client;
        this.page = page;
        this.seed = seed;
    }

    Tally tally() {
        return tally;
    }

    void start(int shoppers) {
        loops.start(shoppers, "chaos-shopper-", i -> new Random(seed * 31 + i), this::shop);
    }

    void stop() throws InterruptedException {
        loops.stop();
    }

    private void shop(Random random) {
        while (loops.running()) {
            try {
                order(random);
            } catch (RuntimeException e) {
                tally.add("workload.error." + e.getClass().getSimpleName());
            }
        }
    }

    private void order(Random random) {
        String orderRef = "chaos-" + Long.toHexString(seed) + "-" + orderNumber.incrementAndGet();
        BigDecimal amount = BigDecimal.valueOf(500 + random.nextInt(20_000), 2);
        String body = """
                {"orderRef":"%s","amount":"%s","currency":"EUR","customer":{"referenceId":"c-%s","email":"c@example.com"}}"""
                .formatted(orderRef, amount.toPlainString(), orderRef);
        if (!retry(random, 8, () -> anyInstance(random, "POST", "/api/orders", ServiceClient.SHOP_KEY, null, body),
                a -> a.status() == 200 || a.status() == 201)) {
            tally.add("order.create.gave-up");
            return;
        }
        tally.add("orders");
        for (int round = 0; round < 3 && loops.running(); round++) {
            String paymentId = checkout(random, orderRef);
            if (paymentId == null) {
                return;
            }
            HostedPage.Click click = page.choose(random);
            if (click == null) {
                tally.add("hosted.left-open");
                return;
            }
            tally.add("hosted." + click.button() + page.press(paymentId, click, random));
            if (random.nextBoolean()) {
                anyInstance(random, "GET", "/api/orders/" + orderRef + "/return", ServiceClient.SHOP_KEY, null, null);
                tally.add("return");
            }
            if (click.effect() == HostedPage.Effect.DECLINE) {
                if (random.nextDouble() < 0.6) {
                    tally.add("checkout.retry-after-decline");
                    continue;
                }
                return;
            }
            if (click.effect() == HostedPage.Effect.AUTHORIZE) {
                double next = random.nextDouble();
                if (next < 0.45) {
                    captureOrVoid(random, orderRef, "capture");
                    refunds(random, orderRef, amount);
                } else if (next < 0.75) {
                    captureOrVoid(random, orderRef, "void");
                }
                return;
            }
            refunds(random, orderRef, amount);
            return;
        }
    }

    /** Checkout until a hosted page comes back (its payment id), or gives up (null). */
    private String checkout(Random random, String orderRef) {
        String path = "/api/orders/" + orderRef + "/checkout";
        for (int tries = 0; tries < 8 && loops.running(); tries++) {
            List<Answer> answers = new ArrayList<>();
            if (random.nextDouble() < 0.5) {
                tally.add("checkout.double-click");
                int first = client.randomInstance(random);
                int second = (first + 1) % Math.max(1, countInstances());
                CompletableFuture<Answer> other = CompletableFuture.supplyAsync(
                        () -> client.call(second, "POST", path, ServiceClient.SHOP_KEY, null, null), loops.side());
                answers.add(client.call(first, "POST", path, ServiceClient.SHOP_KEY, null, null));
                answers.add(other.join());
            } else {
                answers.add(client.call(client.randomInstance(random), "POST", path, ServiceClient.SHOP_KEY, null, null));
            }
            tally.add("checkout.calls");
            String paymentId = null;
            boolean finished = false;
            for (Answer a : answers) {
                tally.add("checkout.answer." + (a.answered() ? a.status() + " " + a.problem() : "none"));
                if (a.status() == 200) {
                    String redirect = a.json().path("redirectUrl").asString("");
                    paymentId = redirect.substring(redirect.lastIndexOf('/') + 1);
                } else if (a.status() == 422 || a.status() == 409 && a.problem().equals("order-not-payable")) {
                    finished = true;
                }
            }
            if (paymentId != null && !paymentId.isEmpty()) {
                return paymentId;
            }
            if (finished) {
                return null;
            }
            pause(random, 300, 1200);
        }
        tally.add("checkout.gave-up");
        return null;
    }

    private void captureOrVoid(Random random, String orderRef, String what) {
        String path = "/api/orders/" + orderRef + "/" + what;
        retry(random, 6, () -> {
            Answer a = anyInstance(random, "POST", path, ServiceClient.ADMIN_KEY, null, null);
            tally.add(what + ".answer." + (a.answered() ? a.status() + " " + a.problem() : "none"));
            return a;
        }, a -> a.status() == 200 || a.status() == 409 && a.problem().equals("order-not-authorized")
                || a.status() == 502);
    }

    private void refunds(Random random, String orderRef, BigDecimal amount) {
        int count = random.nextInt(4);
        String path = "/api/orders/" + orderRef + "/refunds";
        for (int i = 0; i < count && loops.running(); i++) {
            String key = "rf-" + UUID.randomUUID();
            BigDecimal part = amount.multiply(BigDecimal.valueOf(5 + random.nextInt(55), 2))
                    .setScale(2, RoundingMode.DOWN).max(new BigDecimal("0.01"));
            String body = "{\"amount\":\"" + part.toPlainString() + "\",\"currency\":\"EUR\"}";
            tally.add("refund.keys");
            if (random.nextDouble() < 0.3) {
                tally.add("refund.same-key-two-instances");
                int first = client.randomInstance(random);
                int second = (first + 1) % Math.max(1, countInstances());
                CompletableFuture<Answer> other = CompletableFuture.supplyAsync(
                        () -> client.call(second, "POST", path, ServiceClient.ADMIN_KEY, key, body), loops.side());
                note(client.call(first, "POST", path, ServiceClient.ADMIN_KEY, key, body));
                note(other.join());
            }
            retry(random, 5, () -> note(anyInstance(random, "POST", path, ServiceClient.ADMIN_KEY, key, body)),
                    a -> a.status() == 200 || a.status() == 201 || a.status() == 422 || a.status() == 409
                            && !a.problem().equals("refund-outcome-unknown"));
            if (random.nextDouble() < 0.3) {
                tally.add("refund.replayed-key");
                note(anyInstance(random, "POST", path, ServiceClient.ADMIN_KEY, key, body));
            }
            if (random.nextDouble() < 0.1) {
                tally.add("refund.key-reused-other-amount");
                note(anyInstance(random, "POST", path, ServiceClient.ADMIN_KEY, key,
                        "{\"amount\":\"" + part.add(BigDecimal.ONE).toPlainString() + "\",\"currency\":\"EUR\"}"));
            }
        }
    }

    private Answer note(Answer a) {
        tally.add("refund.answer." + (a.answered() ? a.status() + " " + a.problem() : "none"));
        return a;
    }

    private int countInstances() {
        return client.instances();
    }

    /** One call to a random instance; a missing answer is retried once on another instance. */
    private Answer anyInstance(Random random, String method, String path, String bearer, String key, String body) {
        int instance = client.randomInstance(random);
        Answer a = client.call(instance, method, path, bearer, key, body);
        if (!a.answered()) {
            tally.add("call.no-answer");
            a = client.call((instance + 1) % countInstances(), method, path, bearer, key, body);
        }
        return a;
    }

    private boolean retry(Random random, int times, java.util.function.Supplier<Answer> call,
            java.util.function.Predicate<Answer> done) {
        for (int i = 0; i < times && loops.running(); i++) {
            Answer a = call.get();
            if (done.test(a)) {
                return true;
            }
            pause(random, 300, 1200);
        }
        return false;
    }

    private static void pause(Random random, int min, int max) {
        ServiceProcesses.sleep(min + random.nextInt(max - min));
    }
}
