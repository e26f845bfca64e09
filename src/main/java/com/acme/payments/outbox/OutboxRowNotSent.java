package com.acme.payments.outbox;

import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;

/**
 * A resend was asked for a row that was not delivered by its own send: a pending or dead row is still to
 * be sent (or re-driven), a discarded one was settled unsent, a duplicate was settled by its twin's send.
 */
class OutboxRowNotSent extends ApiProblem {

    OutboxRowNotSent(long id) {
        super(ProblemType.OUTBOX_ROW_NOT_SENT,
                "Outbox row " + id + " was not sent; only a row delivered by its own send can be resent.");
    }
}
