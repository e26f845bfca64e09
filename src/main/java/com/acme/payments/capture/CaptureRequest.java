package com.acme.payments.capture;

import java.math.BigDecimal;

import com.acme.payments.common.money.Amounts;
import com.acme.payments.common.web.PlainText;
import com.acme.payments.common.web.Problems;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.order.Order;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Size;

/**
 * The optional body of a capture: how much of the authorized amount to take (with its currency, both or
 * neither; neither is all of it) and the operator's reason.
 */
record CaptureRequest(@Schema(description = "Major units; at most the authorized amount. Absent: all of it.",
        type = "string", example = "20.00") BigDecimal amount,
        @Schema(description = "The order's currency; required with amount", example = "EUR") String currency,
        @Size(max = 500) @PlainText String reason) {

    /** The amount to capture, checked against the order's currency; null for all that is authorized. */
    static BigDecimal amountOf(CaptureRequest body, Order order) {
        if (body == null || body.amount() == null && body.currency() == null) {
            return null;
        }
        Amounts.Checked money = Amounts.check(body.amount(), body.currency());
        if (!money.currency().equals(order.currency())) {
            throw Problems.ValidationFailed.of("currency", "must be the order's currency " + order.currency());
        }
        return money.amount();
    }

    static OperatorNote noteOf(CaptureRequest body) {
        return body == null ? OperatorNote.NONE : new OperatorNote(body.reason());
    }
}
