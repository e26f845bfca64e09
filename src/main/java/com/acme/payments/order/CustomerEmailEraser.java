package com.acme.payments.order;

import java.util.List;

import org.springframework.stereotype.Component;

import com.acme.payments.retention.Retainer;
import com.acme.payments.retention.RetentionJob;
import com.acme.payments.retention.RetentionProperties;

/**
 * The orders' retention job {@code customer-email-erasure} (run by {@code retention/Retentions}): the
 * customer's e-mail is erased from orders whose last change is older than
 * {@code payments.retention.customer-email} (540 days). Only the address goes: the order, its amounts and
 * its customer reference are money records and are kept. Its copies go with it ({@link CustomerEmailCopies}:
 * the stored Stripe session request), in the same transaction.
 */
@Component
class CustomerEmailEraser implements Retainer {

    static final String JOB = "customer-email-erasure";

    private final CustomerEmailErasureApplier erasure;
    private final RetentionProperties properties;

    CustomerEmailEraser(CustomerEmailErasureApplier erasure, RetentionProperties properties) {
        this.erasure = erasure;
        this.properties = properties;
    }

    @Override
    public List<RetentionJob> retentionJobs() {
        return List.of(new RetentionJob(JOB, properties.settings(), List.of(new RetentionJob.Step(
                "customer e-mails", n -> erasure.eraseBatch(properties.customerEmail(), n)))));
    }
}
