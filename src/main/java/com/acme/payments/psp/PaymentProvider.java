package com.acme.payments.psp;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The provider port: everything the checkout, refund, capture/void, sweep and poll code asks of a
 * payment provider, in our own words ({@link PspPayment} with {@link PaymentState}). The rules — one
 * open attempt, commit before the call, UNKNOWN on ambiguity, conditional transitions, reservation,
 * exits, late truths, second charges — live in those flows, once; an adapter only speaks its provider's
 * protocol and maps its states into ours. One adapter is active, chosen by {@code PSP_PROVIDER}
 * ({@link PspProperties#provider()}); see docs/providers.md.
 *
 * <p>Every call classifies fail-safe: a confirmed refusal is {@link PspRejected}, anything ambiguous is
 * {@link PaymentOutcomeUnknown}, and an answer holding a value we cannot book is unknown too (counted).
 */
public interface PaymentProvider {

    /**
     * What this provider needs fixed at the checkout claim (every parameter that config or the clock could
     * change later, such as an expiry), as opaque text the claim stores with the attempt and
     * {@link CreatePayment#fixedRequest()} hands back on every send and reconcile. Null (the default) when the
     * provider fixes nothing. Asked before the claim; never sends anything.
     */
    default String fixRequest(CreatePayment request) {
        return null;
    }

    /** A deposit (checkout) or a refund of one. Never retried by the adapter on its own. */
    PspPayment create(CreatePayment request);

    /** The current truth of one payment (or refund) by the provider's id; empty when it does not know it. */
    Optional<PspPayment> get(String paymentId);

    /**
     * Resolves an ambiguous {@link #create} of a row that is still ours to resolve ({@code IN_FLIGHT} or
     * {@code UNKNOWN}, never an abandoned one): what the provider did with this exact request (rebuilt from
     * the stored row, every parameter as at the claim). It MAY SEND THE CREATE AGAIN: an adapter whose
     * provider deduplicates creates on a key replays the identical request, which creates the payment now
     * if the first never began executing; one that does not only looks. A replay the provider refuses
     * outright comes back as {@link Lookup#refusal()}, to be settled as the first call's refusal would
     * have been. Anything that asks about a row no longer ours (an abandoned row's watch, the abandon's own
     * last question, a settled row) uses {@link #lookUp} instead.
     */
    Lookup reconcile(CreatePayment original);

    /**
     * Only reads: the payments (or refunds) the provider holds for our reference. Never sends a create,
     * under any key, so it is the one look-up for a row that must never be sent again (an abandoned
     * attempt or refund) or that is not ours to resolve.
     */
    List<PspPayment> lookUp(CreatePayment original);

    /** Captures an authorized payment, {@code amount} null for all of it; {@code referenceId} is ours. */
    PspPayment capture(String paymentId, BigDecimal amount, String referenceId);

    PspPayment voidPayment(String paymentId, String referenceId);

    /**
     * Only reads: one page of the payments and refunds the provider holds that were created in
     * {@code [from, to)}, the books a reconciliation holds against ours ({@code cursor} null for the first
     * page; the page's {@link ListingPage#next()} for the following one, null after the last). Never retried
     * here: a refused page is {@link PspRejected}, anything else that is not a page (a 429 or 5xx included,
     * with the provider's {@code Retry-After} when it gave one) {@link PaymentOutcomeUnknown}.
     */
    ListingPage listCreated(Instant from, Instant to, String cursor, int pageSize);

    /**
     * Whether every record {@link #listCreated} lists is the service's (the Gateway: an account of its own);
     * false where the account also holds other integrations' payments (Stripe: billing's purchases), so that
     * only a record carrying our reference, known to us, or refunding one of those is the reconciliation's.
     */
    boolean listsOnlyOurs();

    /** Why this provider cannot take the amount exactly (asked at order creation); empty when it can. */
    default Optional<String> refusesAmount(BigDecimal amount, String currency) {
        return Optional.empty();
    }

    /** One page of {@link #listCreated}: its records in our words, and where the next page starts (null: none). */
    record ListingPage(List<PspPayment> items, String next) {

        public ListingPage {
            items = List.copyOf(items);
        }
    }

    /**
     * What a reconcile learnt. {@code provenAbsent}: the provider proves no payment was created for the
     * reference, so the attempt may close and free the order; never true for an adapter that cannot prove it.
     * {@code refusal}: the replay of the create was refused outright (a confirmed 4xx, nothing created),
     * exactly as the first call's refusal would have been; null otherwise.
     */
    record Lookup(List<PspPayment> payments, boolean provenAbsent, PspRejected refusal) {

        public Lookup {
            payments = List.copyOf(payments);
            if ((provenAbsent || refusal != null) && !payments.isEmpty()) {
                throw new IllegalArgumentException("a lookup that found payments proves nothing absent or refused");
            }
        }

        public static Lookup found(List<PspPayment> payments) {
            return new Lookup(payments, false, null);
        }

        public static Lookup nothingCreated() {
            return new Lookup(List.of(), true, null);
        }

        /** The replayed create was refused: the row settles as the refused first call would have. */
        public static Lookup refused(PspRejected refusal) {
            return new Lookup(List.of(), false, java.util.Objects.requireNonNull(refusal));
        }
    }
}
