package com.acme.payments.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;

import tools.jackson.databind.JsonNode;

/**
 * The PSP surface a chaos run points the service at: what {@link ChaosRun}, {@link ServiceProcesses},
 * {@link Workload} and {@link FaultInjector} need to know of it, so one harness runs against the
 * simulator's Gateway API ({@link GatewayPsp}) or its Stripe surface ({@link StripePsp}) with the same
 * processes, shoppers, kills and outages.
 */
interface ChaosPsp {

    /** The simulator's settings for this surface; {@code webhookInstance} is instance 0's address. */
    Map<String, Object> simulatorProperties(String webhookInstance);

    /** The service's settings for this provider, for one instance. */
    Map<String, String> serviceProperties(int instance, String instanceUrl, String simUrl);

    /** The hosted page's buttons on this surface. */
    HostedPage page(ChaosSimulator sim);

    /** The next PSP fault from this surface's menu: its tally name and the simulator's rule. */
    Fault fault(Random random);

    /** The loads beside the shoppers and the invariants that judge the run. */
    Extras extras(ChaosSettings settings, ServiceProcesses services, ChaosSimulator sim, Workload workload,
            FaultInjector faults);

    /**
     * The scenario kinds a run on this surface must produce beyond {@link ScenarioKinds#COMMON} (tally name
     * prefixes, {@code |} between alternatives): the run fails when one never happened.
     */
    List<String> scenarioKinds();

    /** The simulator's records a red run keeps, by file name part. */
    Map<String, JsonNode> evidence(ChaosSimulator sim);

    record Fault(String name, String rule) {
    }

    /**
     * A rule of the simulator's fault menu ({@code POST /sim/faults}) for the next matching call;
     * {@code fields} are the rule's further JSON fields, or empty.
     */
    static Fault rule(String operation, String fault, String fields) {
        return new Fault(operation + "." + fault, "{\"operation\":\"" + operation + "\",\"fault\":\"" + fault
                + "\",\"times\":1" + (fields.isEmpty() ? "" : "," + fields) + "}");
    }

    /** The delay of a late or slow fault: 1–7 s. */
    static int delay(Random random) {
        return 1000 + random.nextInt(6000);
    }

    /** What runs beside the shoppers, started and stopped with them, and the run's verdict. */
    interface Extras {

        void start();

        /** The workload's end: no new work. */
        void stop() throws InterruptedException;

        /** After the faults: waits for what is still being sent. */
        void finish(Duration timeout) throws InterruptedException;

        Invariants.Result check(List<String> downgrades, List<Instant> kills, ServiceClient client)
                throws Exception;
    }
}
