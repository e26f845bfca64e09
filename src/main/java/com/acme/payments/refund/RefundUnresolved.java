package com.acme.payments.refund;

import java.util.List;

import org.springframework.stereotype.Component;

import com.acme.payments.common.ops.Unresolved;
import com.acme.payments.common.ops.UnresolvedSource;

/** Refund attempts that are IN_FLIGHT or UNKNOWN, for the operators' list. */
@Component
class RefundUnresolved implements UnresolvedSource {

    private final RefundStore refunds;

    RefundUnresolved(RefundStore refunds) {
        this.refunds = refunds;
    }

    @Override
    public List<Unresolved> unresolved(int limit) {
        return refunds.unresolved(limit);
    }
}
