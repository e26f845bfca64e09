package com.acme.payments.outbox;


import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;

/**
 * A redrive or discard was asked for a row that is not dead (pending rows are already retried, delivered and
 * discarded ones are settled).
 */
class OutboxRowNotDead extends ApiProblem {

    OutboxRowNotDead(long id) {
        super(ProblemType.OUTBOX_ROW_NOT_DEAD, "Outbox row " + id + " is not dead; only dead rows can be re-driven or discarded.");
    }
}
