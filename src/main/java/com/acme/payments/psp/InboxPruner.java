package com.acme.payments.psp;

import java.util.List;

import org.springframework.stereotype.Component;

import com.acme.payments.retention.Retainer;
import com.acme.payments.retention.RetentionJob;
import com.acme.payments.retention.RetentionProperties;

/**
 * The inbox's retention job {@code inbox-prune} (run by {@code retention/Retentions}): receipts closed longer
 * ago than {@code payments.retention.inbox-closed} (90 days) are deleted in batches. The receipt only
 * deduplicates deliveries; the money it moved lives in the order, attempt and refund rows, which stay. A
 * delivery of a pruned receipt arrives as new and is answered from those rows (a duplicate state is one).
 */
@Component
class InboxPruner implements Retainer {

    static final String JOB = "inbox-prune";

    private final InboxStore inbox;
    private final RetentionProperties properties;

    InboxPruner(InboxStore inbox, RetentionProperties properties) {
        this.inbox = inbox;
        this.properties = properties;
    }

    @Override
    public List<RetentionJob> retentionJobs() {
        return List.of(new RetentionJob(JOB, properties.settings(), List.of(
                new RetentionJob.Step("closed receipts", n -> inbox.pruneClosed(properties.inboxClosed(), n)))));
    }
}
