package com.acme.payments.billing;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.billing.GrantApplier.PeriodPayment;

/**
 * One reconciled period per transaction, at the same isolation as the webhook's, through the same
 * grant path. There is no event id and no claim: only the ledger's unique key decides.
 */
@Component
class ReconciliationApplier {

    private final GrantApplier entitlements;

    ReconciliationApplier(GrantApplier entitlements) {
        this.entitlements = entitlements;
    }

    @Transactional(isolation = Isolation.SERIALIZABLE)
    public boolean grant(PeriodPayment payment) {
        return entitlements.grantPeriod(payment);
    }
}
