package com.acme.payments.outbox;

import java.util.List;

/**
 * What one claim produced: rows to deliver (this relay holds their row lease AND their dedup key),
 * rows settled as duplicates (their key was already sent), and rows handed back because another row
 * with the same key is being sent right now. {@code takenOver} (a subset of {@code toDeliver}): rows
 * whose key this claim took from a relay whose session had ended, so their earlier send may have
 * reached the sink.
 */
record ClaimedBatch(List<ClaimedEffect> toDeliver, List<String> duplicateKinds, List<String> busyKinds,
        List<ClaimedEffect> takenOver) {

    static final ClaimedBatch EMPTY = new ClaimedBatch(List.of(), List.of(), List.of(), List.of());

    int size() {
        return toDeliver.size() + duplicateKinds.size() + busyKinds.size();
    }
}
