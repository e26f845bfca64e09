package com.acme.payments.order;

import java.time.Duration;
import java.util.List;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * One batch of the customer-e-mail erasure as one transaction: the orders' e-mails and every
 * {@link CustomerEmailCopies} of them go together, so a failure between the two cannot leave a copy behind
 * whose order no longer matches the erasure.
 */
@Component
class CustomerEmailErasureApplier {

    private final OrderStore orders;
    private final List<CustomerEmailCopies> copies;

    CustomerEmailErasureApplier(OrderStore orders, List<CustomerEmailCopies> copies) {
        this.orders = orders;
        this.copies = copies;
    }

    /** Erases up to {@code batchSize} orders' e-mails and their copies; returns how many orders. */
    @Transactional
    public int eraseBatch(Duration retention, int batchSize) {
        List<Long> erased = orders.eraseCustomerEmails(retention, batchSize);
        if (!erased.isEmpty()) {
            copies.forEach(copy -> copy.eraseCustomerEmails(erased));
        }
        return erased.size();
    }
}
