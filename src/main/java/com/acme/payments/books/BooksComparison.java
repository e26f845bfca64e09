package com.acme.payments.books;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PspPayment;

/**
 * Holds the PSP's records of a window against ours, one record at a time, so a month of payments is never
 * held twice: ours of the window are loaded once ({@link #BooksComparison}), each PSP record is matched as its
 * page arrives ({@link #offer}) by the PSP's id or, for a provisional id we still hold or a create whose
 * outcome we never learnt, by our reference. What the window did not match is settled afterwards: PSP
 * records against ours of any date ({@link #settle}), ours against the PSP's own read ({@link #alone}).
 *
 * <p>The rule, per pair: money moved or held on one side and not on the other is a {@code state_mismatch}
 * (a booked refund the PSP shows still under way is not: the straggler poll learns its end); both moved it
 * but for other amounts or currencies, an {@code amount_mismatch}; a PSP record that moved money and has no
 * record here, {@code missing_here}; a booked record of ours the PSP does not know, {@code missing_there}.
 * Where the provider's account is not only ours ({@code listsOnlyOurs} false: Stripe), a PSP record counts
 * only if it carries our reference, is known here, or refunds a payment that does.
 */
final class BooksComparison {

    private final boolean listsOnlyOurs;
    private final Map<String, OurRecord> byId = new HashMap<>();
    private final Map<String, OurRecord> byReference = new HashMap<>();
    private final Set<String> compared = new HashSet<>();
    /** The PSP ids of payments that are ours: their refunds are ours too. */
    private final Set<String> ourPayments = new HashSet<>();
    private final Map<String, PspPayment> unmatched = new LinkedHashMap<>();
    private final List<Mismatch> mismatches = new ArrayList<>();
    private int pspRecords;
    private int ourRecords;

    BooksComparison(boolean listsOnlyOurs, Collection<OurRecord> window) {
        this.listsOnlyOurs = listsOnlyOurs;
        window.forEach(this::hold);
    }

    /** One PSP record of the listing: compared now if ours of the window holds it, else kept for {@link #settle}. */
    void offer(PspPayment theirs) {
        if (!theirs.isRefund() && theirs.referenceId() != null) {
            ourPayments.add(theirs.id());
        }
        OurRecord ours = take(theirs);
        if (ours != null) {
            compare(ours, theirs);
        } else {
            unmatched.putIfAbsent(theirs.id(), theirs);
        }
    }

    /** The PSP ids of the records still unmatched (to look up among ours of any date). */
    Set<String> unmatchedIds() {
        return Set.copyOf(unmatched.keySet());
    }

    /** Our references the unmatched records carry. */
    Set<String> unmatchedReferences() {
        Set<String> references = new HashSet<>();
        unmatched.values().forEach(p -> {
            if (p.referenceId() != null) {
                references.add(p.referenceId());
            }
        });
        return references;
    }

    /** The payments the unmatched refunds refund, and the unmatched payments themselves (whose order?). */
    Set<String> unmatchedPayments() {
        Set<String> ids = new HashSet<>();
        unmatched.values().forEach(p -> ids.add(p.isRefund() && p.parentPaymentId() != null ? p.parentPaymentId() : p.id()));
        return ids;
    }

    /**
     * Settles the unmatched PSP records against {@code found} (ours of any date among their ids and references)
     * and {@code orderOf} (the order of each of our payments among {@link #unmatchedPayments}).
     */
    void settle(Collection<OurRecord> found, Map<String, String> orderOf) {
        found.stream().filter(o -> !compared.contains(o.key())).forEach(this::hold);
        ourPayments.addAll(orderOf.keySet());
        for (PspPayment theirs : unmatched.values()) {
            OurRecord ours = take(theirs);
            if (ours != null) {
                compare(ours, theirs);
            } else if (ours(theirs)) {
                pspRecords++;
                if (movedMoney(theirs)) {
                    String payment = theirs.isRefund() ? theirs.parentPaymentId() : theirs.id();
                    mismatches.add(new Mismatch(MismatchKind.MISSING_HERE, theirs.id(),
                            payment == null ? null : orderOf.get(payment), null, side(theirs)));
                }
            }
        }
        unmatched.clear();
    }

    /** Ours of the window that no PSP record matched, each to be asked of the PSP by its id. */
    List<OurRecord> leftovers() {
        Map<String, OurRecord> left = new LinkedHashMap<>();
        byId.values().forEach(o -> left.putIfAbsent(o.key(), o));
        byReference.values().forEach(o -> left.putIfAbsent(o.key(), o));
        return List.copyOf(left.values());
    }

    /** One of {@link #leftovers}, with what the PSP answered for its id (empty: it does not know it). */
    void alone(OurRecord ours, Optional<PspPayment> theirs) {
        release(ours);
        if (theirs.isPresent()) {
            compare(ours, theirs.get());
            return;
        }
        countOurs(ours);
        if (ours.booked()) {
            mismatches.add(new Mismatch(MismatchKind.MISSING_THERE, ours.pspPaymentId(), ours.orderRef(), ours.side(),
                    null));
        }
    }

    List<Mismatch> mismatches() {
        return List.copyOf(mismatches);
    }

    int pspRecords() {
        return pspRecords;
    }

    int ourRecords() {
        return ourRecords;
    }

    private void hold(OurRecord ours) {
        if (ours.pspPaymentId() != null) {
            byId.putIfAbsent(ours.pspPaymentId(), ours);
        }
        if (ours.reference() != null) {
            byReference.putIfAbsent(referenceKey(ours.refund(), ours.reference()), ours);
        }
    }

    /**
     * Ours for this PSP record: by its id; else by our reference where our id is only provisional (a Stripe
     * session's, superseded by its PaymentIntent) or still unknown. Never by reference at the Gateway
     * otherwise: a second payment under one reference is a second charge, not the attempt's.
     */
    private OurRecord take(PspPayment theirs) {
        OurRecord ours = byId.get(theirs.id());
        if (ours == null && theirs.referenceId() != null) {
            OurRecord candidate = byReference.get(referenceKey(theirs.isRefund(), theirs.referenceId()));
            if (candidate != null && (candidate.pspPaymentId() == null || theirs.supersedesProvisional())) {
                ours = candidate;
            }
        }
        if (ours != null) {
            release(ours);
        }
        return ours;
    }

    private void release(OurRecord ours) {
        if (ours.pspPaymentId() != null) {
            byId.remove(ours.pspPaymentId(), ours);
        }
        if (ours.reference() != null) {
            byReference.remove(referenceKey(ours.refund(), ours.reference()), ours);
        }
    }

    private boolean ours(PspPayment theirs) {
        if (listsOnlyOurs) {
            return true;
        }
        if (theirs.isRefund()) {
            return theirs.parentPaymentId() != null && ourPayments.contains(theirs.parentPaymentId());
        }
        return theirs.referenceId() != null;
    }

    private void compare(OurRecord ours, PspPayment theirs) {
        pspRecords++;
        countOurs(ours);
        if (!theirs.isRefund()) {
            ourPayments.add(theirs.id());
        }
        boolean theirsMoved = movedMoney(theirs);
        MismatchKind kind = null;
        if (ours.booked() && theirsMoved) {
            if (!ours.refund() && !sameStage(ours, theirs)) {
                kind = MismatchKind.STATE_MISMATCH;
            } else if (theirs.amount() == null || ours.amount() == null || ours.amount().compareTo(theirs.amount()) != 0
                    || !Objects.equals(ours.currency(), theirs.currency())) {
                kind = MismatchKind.AMOUNT_MISMATCH;
            }
        } else if (ours.booked()) {
            boolean stillUnderWay = !theirs.paymentState().isFinal() && !theirs.paymentState().isFailure();
            if (!(ours.settling() && stillUnderWay)) {
                kind = MismatchKind.STATE_MISMATCH;
            }
        } else if (theirsMoved) {
            kind = MismatchKind.STATE_MISMATCH;
        }
        if (kind != null) {
            mismatches.add(new Mismatch(kind, theirs.id(), ours.orderRef(), ours.side(), side(theirs)));
        }
    }

    /** A paid order's payment is COMPLETED at the PSP, an authorized one's AUTHORIZED, a second charge COMPLETED. */
    private static boolean sameStage(OurRecord ours, PspPayment theirs) {
        PaymentState state = theirs.paymentState();
        return "AUTHORIZED".equals(ours.state()) ? state == PaymentState.AUTHORIZED : state == PaymentState.COMPLETED;
    }

    private void countOurs(OurRecord ours) {
        if (compared.add(ours.key())) {
            ourRecords++;
        }
    }

    /** Money moved ({@code COMPLETED}) or held for us ({@code AUTHORIZED}) at the PSP. */
    private static boolean movedMoney(PspPayment theirs) {
        PaymentState state = theirs.paymentState();
        return state == PaymentState.COMPLETED || !theirs.isRefund() && state == PaymentState.AUTHORIZED;
    }

    private static BooksSide side(PspPayment theirs) {
        return new BooksSide(theirs.state(), theirs.amount(), theirs.currency());
    }

    private static String referenceKey(boolean refund, String reference) {
        return (refund ? "r:" : "p:") + reference;
    }
}
