package com.acme.payments.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import tools.jackson.databind.JsonNode;

/**
 * The simulator's Gateway API (the default provider): its hosted page's pay / authorize / decline buttons,
 * its fault menu, and beside the shoppers the exits operators and the Stripe billing senders, judged by
 * {@link Invariants}.
 */
final class GatewayPsp implements ChaosPsp {

    /** {operation, fault, extra JSON fields}: the simulator's menu. */
    private static final String[][] MENU = {
            {"create", "timeout", ""},
            {"create", "error-after", ""},
            {"create", "error-before", ""},
            {"create", "html", ""},
            {"create", "truncated", ""},
            {"create", "reset", ""},
            {"create", "invisible", "\"delayMs\":%d"},
            {"create", "reset,invisible", "\"delayMs\":%d"},
            {"create", "timeout,invisible", "\"delayMs\":%d"},
            {"create", "error-after,invisible", "\"delayMs\":%d"},
            {"create", "webhook-before-response", ""},
            {"create", "latency", "\"delayMs\":%d"},
            {"find", "timeout", ""},
            {"find", "error-before", ""},
            {"find", "truncated", ""},
            {"get", "reset", ""},
            {"get", "html", ""},
            {"get", "error-before", ""},
            {"get", "corrupt-answer", "\"field\":\"currency\",\"value\":\"EURO\""},
            {"find", "corrupt-answer", "\"field\":\"amount\",\"value\":\"-1.00\""},
            {"capture", "timeout", ""},
            {"capture", "error-after", ""},
            {"capture", "error-before", ""},
            {"void", "reset", ""},
            {"void", "error-after", ""},
            {"webhook", "webhook-twice", ""},
            {"webhook", "webhook-late", "\"delayMs\":%d"},
            {"webhook", "webhook-out-of-order", ""},
            {"webhook", "webhook-never", ""},
            {"webhook", "webhook-before-response", ""},
            {"sink", "error-before", ""},
            {"sink", "reset", ""},
            {"sink", "latency", "\"delayMs\":300"},
    };

    @Override
    public Map<String, Object> simulatorProperties(String webhookInstance) {
        return Map.of(); // each checkout names its own instance's webhook address
    }

    @Override
    public Map<String, String> serviceProperties(int instance, String instanceUrl, String simUrl) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("payments.psp.api-url", simUrl);
        p.put("payments.psp.api-key", ChaosSimulator.API_KEY);
        p.put("payments.psp.signing-key", ChaosSimulator.SIGNING_KEY);
        // the Stripe API (GET /v1/invoice_payments, linking a refunded charge to its invoice): a stand-in
        p.put("stripe.api-base", StripeApiStandIn.baseUrl());
        return p;
    }

    @Override
    public HostedPage page(ChaosSimulator sim) {
        return new HostedPage((payment, button, random) -> sim.click(payment, button), 303, List.of(
                HostedPage.below(0.55, "pay", HostedPage.Effect.PAY),
                HostedPage.below(0.75, "authorize", HostedPage.Effect.AUTHORIZE),
                HostedPage.below(0.92, "decline", HostedPage.Effect.DECLINE)));
    }

    @Override
    public List<String> scenarioKinds() {
        return List.of("stripe.events.", "stripe.reversals.", "stripe.burst.first-answer.",
                "stripe.redelivered-in-parallel", "stripe.redelivered-after-ack", "exits.orders",
                "exits.refund.psp-declined-", "exits.stale-webhook.", "exits.abandon.answers.",
                "exits.duplicate-refund.unknown.answer", "exits.duplicate-refund.pending.psp-declined-",
                "exits.duplicate-refund.abandon.answers.", "exits.payload-fault.webhook.", "exits.payload-fault.look-up.",
                "exits.contradicting.payment |exits.contradicting.refund ");
    }

    @Override
    public Fault fault(Random random) {
        String[] entry = MENU[random.nextInt(MENU.length)];
        String fields = entry[2].isEmpty() ? "" : entry[2].formatted(ChaosPsp.delay(random));
        if (entry[0].equals("create") && random.nextDouble() < 0.35) {
            fields += (fields.isEmpty() ? "" : ",") + "\"paymentType\":\"REFUND\"";
        }
        return ChaosPsp.rule(entry[0], entry[1], fields);
    }

    @Override
    public Extras extras(ChaosSettings settings, ServiceProcesses services, ChaosSimulator sim, Workload workload,
            FaultInjector faults) {
        StripeWorkload stripe = new StripeWorkload(new ServiceClient(services), settings.seed(), workload.tally(),
                faults.tally(), (from, to) -> faults.outage().map(o -> o.during(from, to)).orElse(false));
        ExitsWorkload exits = new ExitsWorkload(new ServiceClient(services), sim, settings.seed(), workload.tally());
        return new Extras() {
            @Override
            public void start() {
                exits.start(1);
                stripe.start(settings.stripeSenders());
            }

            @Override
            public void stop() throws InterruptedException {
                exits.stop();
                stripe.stopCreating();
            }

            @Override
            public void finish(Duration timeout) throws InterruptedException {
                stripe.finish(timeout);
            }

            @Override
            public Invariants.Result check(List<String> downgrades, List<Instant> kills, ServiceClient client)
                    throws Exception {
                return Invariants.check(sim, downgrades, kills, stripe, exits, client);
            }
        };
    }

    @Override
    public Map<String, JsonNode> evidence(ChaosSimulator sim) {
        return Map.of("payments", sim.payments(), "webhooks", sim.webhooks());
    }
}
