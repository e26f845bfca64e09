package com.acme.payments.discrepancy;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.springframework.stereotype.Component;

/**
 * The operator's one list of money only a person can settle, newest first: the recorded discrepancies and every
 * second charge not refunded yet. Read by the API's listing and the console alike.
 */
@Component
public class Discrepancies {

    private final DiscrepancyStore store;
    private final List<UnrefundedCharges> charges;

    Discrepancies(DiscrepancyStore store, List<UnrefundedCharges> charges) {
        this.store = store;
        this.charges = charges;
    }

    /** At most {@code limitPerSource} of each source, newest first. */
    public List<Discrepancy> newestFirst(int limitPerSource) {
        return Stream.concat(store.newest(limitPerSource).stream(),
                        charges.stream().flatMap(source -> source.unrefunded(limitPerSource).stream()))
                .sorted(Comparator.comparing(Discrepancy::detectedAt).reversed()
                        .thenComparing(Discrepancy::pspPaymentId))
                .toList();
    }
}
