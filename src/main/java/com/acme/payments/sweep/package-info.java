/**
 * The sweep framework (docs/architecture.md): a flow's Store implements {@link com.acme.payments.sweep.SweptTable},
 * its orchestrator {@link com.acme.payments.sweep.Resolver}; {@link com.acme.payments.sweep.Sweeps} registers
 * the rest (schedule, back-off, metrics, gauges, the operators' list); an orchestrator that is also a
 * {@link com.acme.payments.sweep.Poller} declares its {@link com.acme.payments.sweep.PollJob}s, which
 * {@link com.acme.payments.sweep.Polls} schedules on the setting each names ({@code payments.stragglers.*} or
 * {@code payments.sweep.*}). No flow schedules a job itself. Also the plumbing every background
 * job shares: the sweep loop, outage back-off, job metrics, database gauges, the shutdown flag.
 *
 * <p>Leases, one dialect where the semantics allow and the differences named here:
 * <ul>
 * <li>{@code lease_version} — swept tables and PSP inbox receipts: the claim bumps it, the settling
 * transaction locks the row only at that version ({@link com.acme.payments.sweep.Lease}); the row lives on,
 * so a counter on it is the fence.</li>
 * <li>{@code last_polled_at} — the polls (stragglers, abandoned watches): nothing is settled under a lease,
 * the PSP's answer goes through the same conditional transitions as a webhook; the timestamp only spaces
 * the next ask, so no fence is needed ({@code Lease.NONE}).</li>
 * <li>Stripe's {@code claim_token} — the claim is the row's INSERT and a takeover after {@code claimed_at}
 * expires writes a fresh random token that completion checks: the same fence as a version, spelled as a
 * token (unifying it needs a migration, left for a later round).</li>
 * <li>The outbox's {@code lease_until} + relay session lock — a delivery leaves the database (the sink's
 * effect cannot be fenced by a row lock), so the lease is time-bound and a taken-over key is only re-sent
 * once the holder's session is gone (docs/outbox.md).</li>
 * </ul>
 */
package com.acme.payments.sweep;
