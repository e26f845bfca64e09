package com.acme.payments.sweep;

import java.util.List;

/**
 * A flow's polls, implemented by its orchestrator next to {@link Resolver}: the sweep without ageing.
 * {@link Polls} discovers every Poller bean and registers each {@link PollJob} on the schedule it names
 * ({@code payments.stragglers.*} unless it says {@code payments.sweep.*}), with its own back-off and meters;
 * a flow wires no schedule itself.
 */
public interface Poller {

    /** This flow's polls; their names are unique across the application. */
    List<PollJob<?>> polls();
}
