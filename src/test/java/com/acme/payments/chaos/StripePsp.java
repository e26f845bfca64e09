package com.acme.payments.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import tools.jackson.databind.JsonNode;

/**
 * The simulator's Stripe surface as the PSP ({@code payments.psp.provider=stripe}): Checkout Sessions,
 * PaymentIntents and refunds, judged by {@link StripePspInvariants}.
 *
 * <p>Capture is mixed per instance: even instances check out with {@code automatic} capture, odd ones with
 * {@code manual}, and the method is fixed into each attempt at its claim, so a double-click on two
 * instances races the two methods and whichever claims decides. A shopper's "pay" on a manual session
 * authorizes, and "authorize" on an automatic one pays: the capture, void or refund that follows then
 * answers 409, tolerated like every answer. Stripe sends every event to one endpoint: instance 0's
 * {@code /webhooks/stripe}. It is SIGKILLed like the others: the simulator retries an event not answered
 * 2xx after each of {@code pspsim.stripe.webhook-retry-delays} (about 80 s in all), and what is still not
 * delivered the return page, the sweeps and the straggler polls read from Stripe.
 */
final class StripePsp implements ChaosPsp {

    static final String API_KEY = "sk_test_chaos";
    static final String WEBHOOK_SECRET = "whsec_chaos";

    /** Refund amounts (minor units) Stripe fails after taking them: a late failure of a DONE refund. */
    static final List<Long> FAILING_REFUNDS = LongStream.rangeClosed(1, 330).map(i -> i * 41).boxed().toList();
    /** Refund amounts that stay pending until the run settles them at the end ({@link Extras#finish}). */
    static final List<Long> PENDING_REFUNDS = LongStream.rangeClosed(1, 300).map(i -> i * 43).boxed().toList();

    private static final String[] ANY_CALL = {"latency", "timeout", "error-before", "error-after", "html",
            "truncated", "reset"};
    /** {operation, the faults beyond ANY_CALL it takes}; a corrupt-answer names its field and value. */
    private static final String[][] MENU = {
            {"stripe-session-create", "invisible"},
            {"stripe-session-get", "corrupt-answer:amount_total:-1"},
            {"stripe-session-list", "corrupt-answer:currency:EURO"},
            {"stripe-intent-get", "corrupt-answer:currency:EURO"},
            {"stripe-refund-get", "corrupt-answer:amount:-1"},
            {"stripe-intent-capture"},
            {"stripe-intent-cancel"},
            {"stripe-refund-create"},
            {"stripe-session-expire"},
    };
    private static final String[] EVENT_FAULTS = {"webhook-twice", "webhook-late", "webhook-out-of-order",
            "webhook-never", "webhook-before-response"};
    private static final String[] SINK_FAULTS = {"error-before", "reset", "latency"};

    private final long seed;

    StripePsp(long seed) {
        this.seed = seed;
    }

    @Override
    public Map<String, Object> simulatorProperties(String webhookInstance) {
        Map<String, Object> p = new HashMap<>();
        p.put("pspsim.stripe.api-key", API_KEY);
        p.put("pspsim.stripe.webhook-secret", WEBHOOK_SECRET);
        p.put("pspsim.stripe.webhook-url", webhookInstance + "/webhooks/stripe");
        p.put("pspsim.stripe.webhook-retry-delays", "1s,2s,4s,8s,15s,20s,30s");
        p.put("pspsim.stripe.refund-fail-amounts", join(FAILING_REFUNDS));
        p.put("pspsim.stripe.refund-pending-amounts", join(PENDING_REFUNDS));
        return p;
    }

    @Override
    public Map<String, String> serviceProperties(int instance, String instanceUrl, String simUrl) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("payments.psp.provider", "stripe");
        p.put("stripe.api-base", simUrl);
        p.put("stripe.api-key", API_KEY);
        p.put("stripe.webhook-secret", WEBHOOK_SECRET);
        p.put("payments.stripe.capture-method", instance % 2 == 0 ? "automatic" : "manual");
        return p;
    }

    @Override
    public HostedPage page(ChaosSimulator sim) {
        return new HostedPage((session, button, random) -> press(sim, session, button, random), 200, List.of(
                HostedPage.below(0.35, "pay", HostedPage.Effect.PAY),
                HostedPage.below(0.55, "authorize", HostedPage.Effect.AUTHORIZE),
                HostedPage.below(0.63, "async-succeeded", HostedPage.Effect.PAY),
                HostedPage.below(0.68, "async-failed", HostedPage.Effect.DECLINE),
                HostedPage.below(0.80, "decline", HostedPage.Effect.DECLINE),
                HostedPage.below(0.90, "expire", HostedPage.Effect.DECLINE)));
    }

    /** What the Checkout page's buttons do, through the simulator's admin hooks; the status. */
    private static int press(ChaosSimulator sim, String session, String button, Random random) {
        String hook = "sessions/" + session;
        return switch (button) {
            case "expire" -> sim.stripe(hook + "/expire", null);
            case "decline" -> sim.stripe(hook + "/complete", "{\"outcome\":\"decline\"}");
            case "async-succeeded", "async-failed" -> {
                int confirmed = sim.stripe(hook + "/complete", "{\"outcome\":\"async\"}");
                if (confirmed != 200) {
                    yield confirmed;
                }
                ServiceProcesses.sleep(200 + random.nextInt(1500)); // the bank debit takes a while
                yield sim.stripe(hook + "/async", "{\"result\":\"" + button.substring("async-".length()) + "\"}");
            }
            default -> sim.stripe(hook + "/complete", "{\"outcome\":\"pay\"}");
        };
    }

    @Override
    public List<String> scenarioKinds() {
        List<String> kinds = new java.util.ArrayList<>(List.of("refund.late-truth."));
        kinds.addAll(StripeOwnMoney.KINDS);
        return kinds;
    }

    @Override
    public Fault fault(Random random) {
        double dice = random.nextDouble();
        if (dice < 0.15) {
            String fault = EVENT_FAULTS[random.nextInt(EVENT_FAULTS.length)];
            return ChaosPsp.rule("stripe-event", fault,
                    fault.equals("webhook-late") ? "\"delayMs\":" + ChaosPsp.delay(random) : "");
        }
        if (dice < 0.22) {
            String fault = SINK_FAULTS[random.nextInt(SINK_FAULTS.length)];
            return ChaosPsp.rule("sink", fault, fault.equals("latency") ? "\"delayMs\":300" : "");
        }
        String[] entry = MENU[random.nextInt(MENU.length)];
        int pick = random.nextInt(ANY_CALL.length + entry.length - 1);
        String fault = pick < ANY_CALL.length ? ANY_CALL[pick] : entry[pick - ANY_CALL.length + 1];
        if (fault.startsWith("corrupt-answer:")) {
            String[] parts = fault.split(":");
            return ChaosPsp.rule(entry[0], parts[0], "\"field\":\"" + parts[1] + "\",\"value\":\"" + parts[2] + "\"");
        }
        return ChaosPsp.rule(entry[0], fault,
                fault.equals("latency") || fault.equals("invisible") ? "\"delayMs\":" + ChaosPsp.delay(random) : "");
    }

    @Override
    public Extras extras(ChaosSettings settings, ServiceProcesses services, ChaosSimulator sim, Workload workload,
            FaultInjector faults) {
        StripeOwnMoney own = new StripeOwnMoney(new ServiceClient(services), sim, workload.tally(), settings.seed(),
                Math.max(3, (int) settings.duration().toSeconds() / 30));
        return new Extras() {
            @Override
            public void start() {
                // beside the shoppers: money the service did not start, refusals on replay (billing's events are
                // the Gateway run's, StripeWorkload)
                own.start();
            }

            @Override
            public void stop() throws InterruptedException {
                own.stop();
            }

            @Override
            public void finish(Duration timeout) {
                settlePending(sim, new Random(seed ^ 0x5555), workload.tally());
            }

            @Override
            public Invariants.Result check(List<String> downgrades, List<Instant> kills, ServiceClient client)
                    throws Exception {
                Invariants.Result result = StripePspInvariants.check(sim, downgrades, kills, client);
                StripeOwnMoneyInvariants.check(own, sim, client, Invariants.Db.read(), result.checks(), result.facts());
                return result;
            }
        };
    }

    /** The late truth of each refund held pending: succeeded, failed or canceled, at random. */
    private static void settlePending(ChaosSimulator sim, Random random, Tally tally) {
        String[] outcomes = {"succeeded", "succeeded", "failed", "canceled"};
        for (JsonNode refund : sim.stripeRecords("refunds")) {
            if (refund.path("status").asString().equals("pending")) {
                String outcome = outcomes[random.nextInt(outcomes.length)];
                int status = sim.stripe("refunds/" + refund.path("id").asString() + "/settle",
                        "{\"status\":\"" + outcome + "\"}");
                tally.add("refund.late-truth." + outcome + (status == 200 ? "" : ".refused-" + status));
            }
        }
    }

    @Override
    public Map<String, JsonNode> evidence(ChaosSimulator sim) {
        Map<String, JsonNode> records = new LinkedHashMap<>();
        for (String kind : List.of("sessions", "payment_intents", "refunds", "events", "webhooks")) {
            records.put("stripe-" + kind, sim.stripeRecords(kind));
        }
        return records;
    }

    private static String join(List<Long> amounts) {
        return amounts.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
