package com.acme.payments.outbox;

import org.springframework.http.HttpStatus;

import com.acme.payments.common.web.ApiProblem;

/** A redrive was asked for a row that is not dead (pending rows are already retried, delivered ones are done). */
class OutboxRowNotDead extends ApiProblem {

    OutboxRowNotDead(long id) {
        super(HttpStatus.CONFLICT, "outbox-row-not-dead", "Outbox row not dead",
                "Outbox row " + id + " is not dead; only dead rows can be re-driven.");
    }
}
