package com.acme.payments.sweep;

import java.util.function.Supplier;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The one fenced apply of every swept flow: the feature's write runs in one transaction that first locks
 * its row under the caller's {@link Lease}; when another instance claimed the row since, nothing is
 * written ({@link Outcome#FENCED}). With {@link Lease#NONE} (the request path) the write runs alone,
 * fenced by the row's state as always.
 */
@Component
public class FencedApplier {

    @Transactional
    public Outcome apply(SweptTable<?> table, Lease lease, Supplier<Outcome> write) {
        if (lease.held() && !table.holdLease(lease)) {
            return Outcome.FENCED;
        }
        return write.get();
    }
}
