package com.acme.payments.psp;

import java.math.BigDecimal;
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
     * Resolves an ambiguous {@link #create}: what the provider did with this exact request (rebuilt from
     * the stored row, every parameter as at the claim). An adapter whose provider deduplicates creates
     * on a key may send the identical request again; one that does not only looks.
     */
    Lookup reconcile(CreatePayment original);

    /** Only looks: the payments the provider holds for our reference. Never creates anything. */
    List<PspPayment> findByReference(CreatePayment original);

    /** Captures an authorized payment, {@code amount} null for all of it; {@code referenceId} is ours. */
    PspPayment capture(String paymentId, BigDecimal amount, String referenceId);

    PspPayment voidPayment(String paymentId, String referenceId);

    /** Why this provider cannot take the amount exactly (asked at order creation); empty when it can. */
    default Optional<String> refusesAmount(BigDecimal amount, String currency) {
        return Optional.empty();
    }

    /**
     * What a reconcile learnt. {@code provenAbsent}: the provider proves no payment was created for the
     * reference, so the attempt may close and free the order; never true for an adapter that cannot prove it.
     */
    record Lookup(List<PspPayment> payments, boolean provenAbsent) {

        public Lookup {
            payments = List.copyOf(payments);
            if (provenAbsent && !payments.isEmpty()) {
                throw new IllegalArgumentException("a lookup that found payments proves nothing absent");
            }
        }

        public static Lookup found(List<PspPayment> payments) {
            return new Lookup(payments, false);
        }

        public static Lookup nothingCreated() {
            return new Lookup(List.of(), true);
        }
    }
}
