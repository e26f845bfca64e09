package com.acme.payments.billing;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.billing.GrantApplier.PeriodPayment;

/**
 * One reconciled period per transaction, at the webhook's isolation and lock order, through the same
 * grant path. There is no event id and no claim: only the ledger's unique key decides. The invoice is
 * recorded too (when the webhook never came), so a later refund of it finds its subscription, and a
 * reversal kept before it is applied now.
 */
@Component
class ReconciliationApplier {

    private final GrantApplier entitlements;
    private final InvoiceStore invoices;
    private final PendingReversalStore pending;
    private final ReversalApplier reversals;
    private final BillingProperties properties;

    ReconciliationApplier(GrantApplier entitlements, InvoiceStore invoices, PendingReversalStore pending,
            ReversalApplier reversals, BillingProperties properties) {
        this.entitlements = entitlements;
        this.invoices = invoices;
        this.pending = pending;
        this.reversals = reversals;
        this.properties = properties;
    }

    @Transactional // READ COMMITTED: the pool's isolation (application.yml)
    public boolean grant(PeriodPayment payment) {
        boolean recordable = payment.amountPaid() != null && payment.currency() != null;
        if (recordable) {
            pending.lockPaymentKeys(payment.invoiceId());
            invoices.record(payment.invoiceId(), payment.subscriptionId(), null, payment.amountPaid(),
                    payment.currency(), properties.creditsPerPeriod());
        }
        boolean granted = entitlements.grantPeriod(payment);
        if (recordable) {
            reversals.applyPendingToInvoice(payment.invoiceId(), null);
        }
        return granted;
    }
}
